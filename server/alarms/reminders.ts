import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Reminder } from '../../src/contract/reminders';
import { REMINDERS_PER_KIND, type ReminderSource } from '../reminders/types';
import { alarms } from '../db/alarmSchema';
import { farms, houses } from '../db/schema';
import { inScope } from './access';

/**
 * The day's first reminder: every open (not cleared) alarm of the scope, the ones nobody has
 * acknowledged first, then the oldest. An alarm is overdue once it has gone unacknowledged for
 * longer than `UNACKNOWLEDGED_OVERDUE_MS`.
 */
const UNACKNOWLEDGED_OVERDUE_MS = 60 * 60 * 1000;

export const alarmReminders: ReminderSource = {
  kind: 'alarm',
  async read({ database, scope, now, houseId }) {
    const rows = await database.db
      .select({
        id: alarms.id,
        houseId: alarms.houseId,
        houseName: houses.name,
        farmName: farms.name,
        cause: alarms.cause,
        state: alarms.state,
        raisedAt: alarms.raisedAt,
      })
      .from(alarms)
      .innerJoin(houses, eq(houses.id, alarms.houseId))
      .innerJoin(farms, eq(farms.id, houses.farmId))
      .where(
        and(
          ne(alarms.state, 'cleared'),
          inScope(scope, alarms.houseId),
          houseId === undefined ? undefined : eq(alarms.houseId, houseId),
        ),
      )
      .orderBy(desc(sql`${alarms.state} = 'active'`), asc(alarms.raisedAt))
      .limit(REMINDERS_PER_KIND);
    return rows.map((r): Reminder => {
      const raisedAt = r.raisedAt;
      const unacknowledged = r.state === 'active';
      return {
        kind: 'alarm',
        id: `alarm:${r.id}`,
        houseId: r.houseId,
        houseName: r.houseName,
        farmName: r.farmName,
        at: raisedAt.toISOString(),
        text: unacknowledged ? 'alarms.reminder.unacknowledged' : 'alarms.reminder.acknowledged',
        params: { causeKey: `alarms.cause.${r.cause}` },
        overdue: unacknowledged && now.getTime() - raisedAt.getTime() > UNACKNOWLEDGED_OVERDUE_MS,
      };
    });
  },
};
