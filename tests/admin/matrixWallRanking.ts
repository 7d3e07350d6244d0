/** The wall's farm ranking in the role × endpoint matrix: every role, its scope's houses only. */
import type { WallRanking } from '../../src/contract/wallRanking';
import type { Fixtures, Role } from './matrixFixtures';
import { ALL, OUTSIDE_HOUSE, type Endpoint } from './matrixShared';

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
];
