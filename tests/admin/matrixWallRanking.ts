/** The wall's farm ranking in the role × endpoint matrix: every role, its scope's houses only. */
import type { WallFarmCurves, WallRanking } from '../../src/contract/wallRanking';
import type { Fixtures, Role } from './matrixFixtures';
import { ALL, OUTSIDE_HOUSE, per, type Endpoint } from './matrixShared';

const SCOPED = ['company', 'area', 'farm', 'shack'] as const;

/**
 * Leaves one house online and far off target (its NH3 at 90 % of its limit), one the role may
 * not see (for an administrator, one every role sees); every other house offline, so ranks
 * nothing. A ranking that names it shows what is outside the scope.
 */
const onlyHouseOffOutside = async (f: Fixtures, role: Role) => {
  const house = role === 'admin' ? f.house.wf1 : f.house[OUTSIDE_HOUSE[role].house];
  await f.make.query(`update house_state set online = false`);
  await f.make.query(
    `insert into alarm_limits (house_id, limits) values ($1, '{"nh3Max": 20}'::jsonb)
     on conflict (house_id) do update set limits = excluded.limits`,
    [house],
  );
  await f.make.query(
    `insert into house_state (house_id, online, metrics) values ($1, true, '{"nh3": 18}'::jsonb)
     on conflict (house_id) do update set online = true, metrics = excluded.metrics`,
    [house],
  );
  return { url: '/wall/ranking' };
};

export const WALL_RANKING_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/wall/ranking',
    roles: ALL,
    inside: Object.fromEntries(ALL.map((r) => [r, (f: Fixtures) => onlyHouseOffOutside(f, r)])),
    check: Object.fromEntries(
      SCOPED.map((role) => [
        role,
        (data: unknown) => {
          const { farms } = data as WallRanking;
          if (farms.length !== 0) throw new Error(`${role} ranks a house outside its scope`);
        },
      ]),
    ),
  },
  {
    method: 'GET',
    path: '/wall/farm/:farmId/curves',
    roles: ALL,
    // Weifang: every role sees some of its houses (the shack manager not House 4).
    inside: per((f) => ({ url: `/wall/farm/${f.node.weifang}/curves` }), ALL),
    // Another farm's curves look like no farm at all; a shack of its own farm is left out.
    outside: Object.fromEntries(
      (['company', 'area', 'farm'] as const).map((role) => [
        role,
        [
          {
            why: OUTSIDE_HOUSE[role].why,
            build: async (f: Fixtures) => {
              const [house] = await f.make.query<{ farm_id: number }>(
                `select farm_id from houses where id = $1`,
                [f.house[OUTSIDE_HOUSE[role].house]],
              );
              return { url: `/wall/farm/${house!.farm_id}/curves` };
            },
          },
        ],
      ]),
    ),
    check: {
      shack: (data: unknown, _body: string, f: Fixtures) => {
        const houses = (data as WallFarmCurves).houses.map((h) => h.houseId);
        if (houses.includes(f.house.wf4)) throw new Error('shack draws a house it was not given');
      },
    },
  },
];
