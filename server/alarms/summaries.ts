import { and, count, gte, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { alarms } from '../db/alarmSchema';
import type { Scope } from '../auth/scope';
import { ALARM_CAUSES, type AlarmToday } from '../../src/contract/alarms';
import { inScope } from './access';

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
  const rows = await database.db
    .select({ cause: alarms.cause, n: count() })
    .from(alarms)
    .where(
      and(
        gte(
          alarms.raisedAt,
          sql`(date_trunc('day', now() at time zone ${timeZone}) at time zone ${timeZone})`,
        ),
        inScope(scope, alarms.houseId),
      ),
    )
    .groupBy(alarms.cause);
  const counts = new Map(rows.map((r) => [r.cause, r.n]));
  return ALARM_CAUSES.map((cause) => ({ cause, count: counts.get(cause) ?? 0 }));
}

/** The open (not cleared) alarms of the scope. */
export async function openAlarmCountOf(database: Database, scope: Scope): Promise<number> {
  const [row] = await database.db
    .select({ n: count() })
    .from(alarms)
    .where(and(ne(alarms.state, 'cleared'), inScope(scope, alarms.houseId)));
  return row?.n ?? 0;
}
