import { timingSafeEqual } from 'node:crypto';
import { and, eq, exists, sql } from 'drizzle-orm';
import { alarmNotifyAttempts } from '../db/alarmSchema';
import type { Database } from '../db/client';
import { notifyDrillReceipts } from '../db/notifySchema';

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
  const { db } = database;
  const r = notifyDrillReceipts;
  const drills = await db
    .update(r)
    .set(
      delivered
        ? { deliveredAt: sql`coalesce(${r.deliveredAt}, ${now}::timestamptz)` }
        : // A delivery reported first stands: a later failure report does not undo it.
          {
            failedDetail: sql`case when ${r.deliveredAt} is null then ${detail} else ${r.failedDetail} end`,
          },
    )
    .where(eq(r.providerId, providerId))
    .returning({ drillId: r.drillId });
  const a = alarmNotifyAttempts;
  const [sent] = await db
    .select({
      attempt: {
        notificationId: a.notificationId,
        alarmId: a.alarmId,
        phoneId: a.phoneId,
        channel: a.channel,
        adapter: a.adapter,
        try: a.try,
      },
      failedBefore: exists(
        db
          .select({ one: sql`1` })
          .from(a)
          .where(and(eq(a.providerId, providerId), eq(a.ok, false))),
      ).mapWith(Boolean),
    })
    .from(a)
    .where(and(eq(a.providerId, providerId), eq(a.ok, true)))
    .limit(1);
  // The failure as one more attempt of the accepted one, once: a repeated report adds nothing.
  if (sent && !delivered && !sent.failedBefore)
    await db.insert(a).values({ ...sent.attempt, at: now, ok: false, detail, providerId });
  return drills.length > 0 || sent !== undefined;
}

/** Compares a secret the caller gave with the configured one in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
