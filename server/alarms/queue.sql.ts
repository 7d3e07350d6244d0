import { NOTICE_TYPE_OF, type Alarm } from '../../src/contract/alarms';
import type { Query } from '../db/client';

/**
 * Puts a newly raised alarm in the notification queue once per alarm phone entry that covers
 * its house (the entry's house, or every house of its farm) and its notice type. The first
 * notification is due after the entry's delay; the dispatcher takes it from there. Entries of
 * a higher escalation level wait until the dispatcher escalates to them.
 *
 * Hand-written: one `insert … select` in the transaction that raises the alarm (the engine's,
 * on the ingest path). Drizzle 0.45's insert from a select must select every column of the
 * table in order (the id, the sent count, ...), and a select then an insert is a second round
 * trip while the alarm's locks are held.
 */
export async function enqueueNotifications(query: Query, alarm: Alarm, now: Date): Promise<void> {
  await query(
    `insert into alarm_notifications (alarm_id, phone_id, next_at)
     select $1, p.id, $2::timestamptz + make_interval(mins => p.delay_minutes)
     from alarm_phones p
     where p.status = 'open' and p.farm_id = $3 and (p.house_id is null or p.house_id = $4)
       and p.notice_types @> $5::jsonb
       and not exists (select 1 from notify_phone_levels l where l.phone_id = p.id and l.level > 0)
     on conflict (alarm_id, phone_id) do nothing`,
    [alarm.id, now, alarm.farmId, alarm.houseId, JSON.stringify([NOTICE_TYPE_OF[alarm.cause]])],
  );
}
