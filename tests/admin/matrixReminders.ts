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
