import type { Role } from './matrixFixtures';
import { ALL, per, type Endpoint, type Outside } from './matrixShared';

/** A house of the demo each scoped role may not see. */
const OUTSIDE_HOUSE: Record<
  Exclude<Role, 'admin'>,
  { why: string; house: 'qy1' | 'tl1' | 'gc1' | 'wf4' }
> = {
  company: { why: 'a house of the other company', house: 'qy1' },
  area: { why: 'a house of a farm it does not manage', house: 'tl1' },
  farm: { why: 'a house of another farm', house: 'gc1' },
  shack: { why: 'a house of its farm it was not given', house: 'wf4' },
};

const outsideHouse = (url: (houseId: number) => string): Partial<Record<Role, Outside[]>> =>
  Object.fromEntries(
    Object.entries(OUTSIDE_HOUSE).map(([role, { why, house }]) => [
      role,
      [{ why, build: (f) => ({ url: url(f.house[house]) }) }],
    ]),
  );

/** The day's reminders: everyone reads them, for the scope or one house in it. */
export const REMINDER_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/reminder/today',
    roles: ALL,
    inside: per((f) => ({ url: `/reminder/today?houseId=${f.house.wf1}` }), ALL),
    outside: outsideHouse((houseId) => `/reminder/today?houseId=${houseId}`),
  },
];
