import type { Role } from './matrixFixtures';
import { ALL, per, type Check, type Endpoint } from './matrixShared';

/**
 * A role's wall figures count only the flocks of its scope: fewer than every open flock of the
 * day (each role's scope leaves at least one demo house with a flock outside), all for admin.
 */
function flocksOfScope(role: Role): Check {
  return async (data, _body, f) => {
    const { mortality } = data as {
      mortality: { yesterday: { day: string; flockHouses: number } };
    };
    const { day, flockHouses } = mortality.yesterday;
    const [row] = await f.make.query<{ n: number }>(
      `select count(*)::int as n from flocks
       where placed_on <= $1::date and (closed_on is null or closed_on >= $1::date)`,
      [day],
    );
    const every = Number(row!.n);
    if (role === 'admin' ? flockHouses !== every : flockHouses >= every)
      throw new Error(`${role} counts ${flockHouses} of ${every} open flocks`);
  };
}

/** The kiosk link's wall counts the open flocks of its one farm, Weifang, and no others. */
const flocksOfKiosk: Check = async (data, _body, f) => {
  const { day, flockHouses } = (
    data as { mortality: { yesterday: { day: string; flockHouses: number } } }
  ).mortality.yesterday;
  const [row] = await f.make.query<{ n: number }>(
    `select count(*)::int as n from flocks join houses on houses.id = flocks.house_id
     where houses.farm_id = $2 and placed_on <= $1::date and (closed_on is null or closed_on >= $1::date)`,
    [day, f.kiosk.farmId],
  );
  const own = Number(row!.n);
  if (own === 0 || flockHouses !== own)
    throw new Error(`the kiosk counts ${flockHouses} open flocks, its farm has ${own}`);
};

/** The wall's reads: every role sees the wall of its own scope. */
export const WALL_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/wall/production',
    roles: ALL,
    inside: per(() => ({ url: '/wall/production' }), ALL),
    check: Object.fromEntries(ALL.map((r) => [r, flocksOfScope(r)])),
    kiosk: { inside: () => ({ url: '/wall/production' }), check: flocksOfKiosk },
  },
];
