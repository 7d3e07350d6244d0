import type { Database } from '../db/client';
import type { Scope } from '../auth/scope';
import { ALARM_CAUSES, type AlarmToday } from '../../src/contract/alarms';
import { scopeWhere } from './access';

/**
 * The alarm figures the console's home and the wall show, for any scope: a signed-in user's
 * (/alarm/today, /overview/alarmAmt/) or a kiosk link's (/wall/...), from one query each.
 */

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
