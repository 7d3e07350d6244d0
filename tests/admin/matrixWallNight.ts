/** The wall's night story in the role × endpoint matrix: every role, the alarms of its scope only. */
import { countOf, type WallNight } from '../../src/contract/wallNight';
import type { Fixtures, Role } from './matrixFixtures';
import { ALL, OUTSIDE_HOUSE, type Endpoint } from './matrixShared';
import { alarmsFor } from './matrixWallReads';

const SCOPED = ['company', 'area', 'farm', 'shack'] as const;

/**
 * Leaves one alarm, raised now, in a house the role may not see (for an administrator, in one
 * every role sees): a night story that counts it shows what is outside the scope.
 */
const onlyAlarmOutside = async (f: Fixtures, role: Role) => {
  const house = role === 'admin' ? f.house.wf1 : f.house[OUTSIDE_HOUSE[role].house];
  await f.make.query(`delete from alarms`);
  await f.make.query(
    `insert into alarms (house_id, farm_id, cause, subject, severity, state, raised_at)
     select id, farm_id, 'temperatureHigh', 'matrix', 'critical', 'active', now()
     from houses where id = $1`,
    [house],
  );
  return { url: '/wall/night' };
};

export const WALL_NIGHT_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/wall/night',
    roles: ALL,
    inside: Object.fromEntries(ALL.map((r) => [r, (f: Fixtures) => onlyAlarmOutside(f, r)])),
    check: Object.fromEntries(
      SCOPED.map((role) => [
        role,
        (data: unknown) => {
          const raised = (data as WallNight).today.reduce((n, h) => n + countOf(h.raised), 0);
          if (raised !== 0) throw new Error(`${role} counts an alarm outside its scope`);
        },
      ]),
    ),
    // Weifang's alarm and Gaocheng's: the kiosk link of Weifang counts one.
    kiosk: {
      inside: async (f) => {
        await alarmsFor(f, 'kiosk');
        return { url: '/wall/night' };
      },
      check: (data) => {
        const raised = (data as WallNight).today.reduce((n, h) => n + countOf(h.raised), 0);
        if (raised !== 1) throw new Error(`the kiosk counts ${raised} alarms, its farm has 1`);
      },
    },
  },
];
