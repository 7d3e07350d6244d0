import type { Database } from '../db/client';
import type { Scope } from '../auth/scope';
import { scopeWhere } from '../alarms/access';
import { ALARM_CAUSES, type AlarmToday } from '../../src/contract/alarms';

/**
 * What the wall reads besides its map, for a kiosk link: the console's endpoints
 * (/overview/listOverview/, /alarm/today, /overview/alarmAmt/) answer signed-in users only, and
 * take their scope from the user. These answer the same shapes for any scope, so a kiosk wall
 * runs on the console's own stores and live connection.
 */

export { overviewOf } from '../houses/overview';

/** Alarms raised today (the installation's day) by cause, in the scope. */
export async function alarmsTodayOf(
  database: Database,
  scope: Scope,
  timeZone: string,
): Promise<AlarmToday> {
  const params: unknown[] = [timeZone];
  const rows = await database.query<{ cause: string; n: number }>(
    `select a.cause, count(*)::int as n from alarms a
     where a.raised_at >= (date_trunc('day', now() at time zone $1) at time zone $1)
       and ${scopeWhere(scope, params)}
     group by a.cause`,
    params,
  );
  const counts = new Map(rows.map((r) => [r.cause, Number(r.n)]));
  return ALARM_CAUSES.map((cause) => ({ cause, count: counts.get(cause) ?? 0 }));
}

/** The open (not cleared) alarms of the scope. */
export async function openAlarmCountOf(database: Database, scope: Scope): Promise<number> {
  const params: unknown[] = [];
  const [row] = await database.query<{ n: number }>(
    `select count(*)::int as n from alarms a where a.state <> 'cleared' and ${scopeWhere(scope, params)}`,
    params,
  );
  return Number(row?.n ?? 0);
}
