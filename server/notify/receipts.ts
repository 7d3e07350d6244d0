import { timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/client';

/**
 * One provider's report on one message or call: delivered to the phone, or never will be.
 * `detail` names the provider and its status code, as the alarm and the drill report show it.
 */
export interface DeliveryReport {
  providerId: string;
  delivered: boolean;
  detail: string;
}

/**
 * Applies a provider's delivery report to what Roost sent under that id: a drill's receipt is
 * marked delivered or failed; an alarm's notification gets the failure as one more attempt
 * (same channel, adapter and try, not ok), so the alarm's attempts show that the phone never
 * got it although the provider had accepted it. A repeated report changes nothing more.
 * Answers whether the id was one Roost sent.
 */
export async function applyDeliveryReport(
  database: Database,
  report: DeliveryReport,
  now: Date,
): Promise<boolean> {
  const { providerId, delivered, detail } = report;
  const drills = delivered
    ? await database.query<{ drill_id: number }>(
        `update notify_drill_receipts set delivered_at = coalesce(delivered_at, $2)
         where provider_id = $1 returning drill_id`,
        [providerId, now],
      )
    : await database.query<{ drill_id: number }>(
        `update notify_drill_receipts
         set failed_detail = case when delivered_at is null then $2 else failed_detail end
         where provider_id = $1 returning drill_id`,
        [providerId, detail],
      );
  const [sent] = await database.query<{ id: number }>(
    `select id from alarm_notify_attempts where provider_id = $1 and ok limit 1`,
    [providerId],
  );
  if (sent && !delivered)
    await database.query(
      `insert into alarm_notify_attempts
         (notification_id, alarm_id, phone_id, channel, adapter, try, at, ok, detail, provider_id)
       select notification_id, alarm_id, phone_id, channel, adapter, try, $2, false, $3, provider_id
       from alarm_notify_attempts s where s.id = $1
         and not exists (select 1 from alarm_notify_attempts x
                         where x.provider_id = s.provider_id and not x.ok)`,
      [sent.id, now, detail],
    );
  return drills.length > 0 || sent !== undefined;
}

/** Compares a secret the caller gave with the configured one in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
