import { ALL, outsideHouse, per, type Endpoint } from './matrixShared';

/** The day's reminders: everyone reads them, for the scope or one house in it. */
export const REMINDER_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/reminder/today',
    roles: ALL,
    inside: per((f) => ({ url: `/reminder/today?houseId=${f.house.wf1}` }), ALL),
    outside: outsideHouse((houseId) => ({ url: `/reminder/today?houseId=${houseId}` })),
  },
];

/** Data completeness: everyone reads it, for houses in scope. */
export const COMPLETENESS_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/houses/completeness',
    roles: ALL,
    inside: per(
      (f) => ({
        url: `/houses/completeness?houseIds=${f.house.wf1}&from=2026-01-01&to=2026-01-07`,
      }),
      ALL,
    ),
    outside: outsideHouse((houseId) => ({
      url: `/houses/completeness?houseIds=${houseId}&from=2026-01-01&to=2026-01-07`,
    })),
  },
];
