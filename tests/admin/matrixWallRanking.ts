/** The wall's farm ranking in the role × endpoint matrix: every role, its scope's houses only. */
import type { WallFarmCurves, WallRanking } from '../../src/contract/wallRanking';
import type { Fixtures, Role } from './matrixFixtures';
import { ALL, OUTSIDE_HOUSE, per, type Endpoint } from './matrixShared';

const SCOPED = ['company', 'area', 'farm', 'shack'] as const;

/**
 * Leaves the houses named online and far off target (NH3 at 90 % of its limit), every other
 * house offline, so ranks nothing.
 */
const onlyHousesOff = async (f: Fixtures, houses: readonly number[]) => {
  await f.make.query(`update house_state set online = false`);
  for (const house of houses) {
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
  }
  return { url: '/wall/ranking' };
};

/**
 * Leaves one house off target, one the role may not see (for an administrator, one every role
 * sees): a ranking that names it shows what is outside the scope.
 */
const onlyHouseOffOutside = (f: Fixtures, role: Role) =>
  onlyHousesOff(f, [role === 'admin' ? f.house.wf1 : f.house[OUTSIDE_HOUSE[role].house]]);

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
    // A house of Weifang and one of Gaocheng off target: the kiosk link of Weifang ranks its
    // own. The Weifang house is new: a ranking is shared by every wall of the same houses for
    // 15 s, and the farm manager's (Weifang's houses too) was read a moment ago, ranking none.
    kiosk: {
      inside: async (f) => onlyHousesOff(f, [await f.make.house(f.kiosk.farmId), f.house.gc1]),
      check: (data, _body, f) => {
        const farms = (data as WallRanking).farms.map((x) => x.farmId);
        if (farms.join() !== String(f.kiosk.farmId))
          throw new Error(`the kiosk ranks ${farms.join()}`);
      },
    },
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
    kiosk: {
      inside: (f) => ({ url: `/wall/farm/${f.kiosk.farmId}/curves` }),
      outside: [
        {
          why: 'a farm outside its link',
          build: (f) => ({ url: `/wall/farm/${f.node.gaocheng}/curves` }),
        },
      ],
    },
  },
];
