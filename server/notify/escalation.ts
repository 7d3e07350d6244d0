import { NOTICE_TYPE_OF, type Alarm } from '../../src/contract/alarms';
import type { Query } from '../db/client';

/**
 * Queues the alarm for the entries one escalation level above `phoneId`'s that cover the
 * alarm (house or farm, notice type), each after its own delay. Called when a repeat of
 * `phoneId` finds the alarm still unacknowledged; a second call changes nothing.
 */
export async function escalate(query: Query, alarm: Alarm, phoneId: number, now: Date) {
  await query(
    `insert into alarm_notifications (alarm_id, phone_id, next_at)
     select $1, p.id, $2::timestamptz + make_interval(mins => p.delay_minutes)
     from alarm_phones p join notify_phone_levels l on l.phone_id = p.id
     where p.status = 'open' and p.farm_id = $3 and (p.house_id is null or p.house_id = $4)
       and p.notice_types @> $5::jsonb
       and l.level = coalesce((select level from notify_phone_levels where phone_id = $6), 0) + 1
     on conflict (alarm_id, phone_id) do nothing`,
    [
      alarm.id,
      now,
      alarm.farmId,
      alarm.houseId,
      JSON.stringify([NOTICE_TYPE_OF[alarm.cause]]),
      phoneId,
    ],
  );
}
