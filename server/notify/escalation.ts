import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { NOTICE_TYPE_OF, type Alarm } from '../../src/contract/alarms';
import type { Db } from '../db/client';
import { alarmNotifications, alarmPhones } from '../db/alarmSchema';
import { notifyPhoneLevels } from '../db/notifySchema';

/**
 * Queues the alarm for the entries one escalation level above `phoneId`'s that cover the
 * alarm (house or farm, notice type), each after its own delay. Called when a repeat of
 * `phoneId` finds the alarm still unacknowledged; a second call changes nothing.
 *
 * A select then an insert, not one `insert … select`: Drizzle 0.45's insert from a select must
 * select every column of the table (the id, the sent count, ...). An entry changed between the
 * two is harmless: the dispatcher reads the entry again before it sends anything.
 */
export async function escalate(db: Db, alarm: Alarm, phoneId: number, now: Date) {
  const p = alarmPhones;
  const l = notifyPhoneLevels;
  const own = alias(notifyPhoneLevels, 'own');
  const ownLevel = db.select({ level: own.level }).from(own).where(eq(own.phoneId, phoneId));
  const above = await db
    .select({ id: p.id, delayMinutes: p.delayMinutes })
    .from(p)
    .innerJoin(l, eq(l.phoneId, p.id))
    .where(
      and(
        eq(p.status, 'open'),
        eq(p.farmId, alarm.farmId),
        or(isNull(p.houseId), eq(p.houseId, alarm.houseId)),
        sql`${p.noticeTypes} @> ${JSON.stringify([NOTICE_TYPE_OF[alarm.cause]])}::jsonb`,
        eq(l.level, sql`coalesce((${ownLevel}), 0) + 1`),
      ),
    );
  if (above.length === 0) return;
  await db
    .insert(alarmNotifications)
    .values(
      above.map((e) => ({
        alarmId: alarm.id,
        phoneId: e.id,
        // Minutes are exact, as the interval the statement added was: no calendar in between.
        nextAt: new Date(now.getTime() + e.delayMinutes * 60_000),
      })),
    )
    .onConflictDoNothing({ target: [alarmNotifications.alarmId, alarmNotifications.phoneId] });
}
