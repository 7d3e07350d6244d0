import type { FastifyBaseLogger } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import type { Alarm } from '../../src/contract/alarms';
import { CHANNELS_OF, type Channel, type ChannelAdapter } from '../alarms/channels';
import { inWindow } from '../alarms/schedule';
import { alarmPhones } from '../db/alarmSchema';
import type { Database } from '../db/client';
import { deviceNoticeSends } from '../db/devicesSchema';
import { dayIn } from './maintenance';
import { deviceNotices, type DeviceNotice } from './notify';

/** Due plans are looked for at most this often (the dispatcher's rounds are every few seconds). */
export const DEVICE_NOTICE_EVERY_MS = 60_000;

const WORDS = {
  en: { due: 'Maintenance due', overdue: 'Maintenance overdue' },
  zh: { due: '设备维护到期', overdue: '设备维护已逾期' },
} as const;

/**
 * Sends the day's due and overdue maintenance to the alarm phone entries that asked for
 * "device" notices, once a day per plan and entry, inside the entry's periods. The alarm
 * dispatcher calls `send` on each of its rounds; a (plan, entry, day) row claims each notice,
 * so a later round, a restart or a second process never sends it again that day.
 * Maintenance rides the alarm channels as a minor "device" item whose text says what is due.
 */
export class DeviceNoticeSender {
  private lastLook = -Infinity;

  constructor(
    private readonly database: Database,
    private readonly options: {
      adapters: Record<Channel, ChannelAdapter>;
      timeZone: string;
      locale: 'en' | 'zh';
      log: FastifyBaseLogger;
    },
  ) {}

  /**
   * Sends what is due `now` and not yet sent today; answers how many notices went out. A
   * failure is logged and answers 0: it never holds up the alarms' own notifications.
   */
  async send(now: Date): Promise<number> {
    if (Math.abs(now.getTime() - this.lastLook) < DEVICE_NOTICE_EVERY_MS) return 0;
    this.lastLook = now.getTime();
    try {
      return await this.sendDue(now);
    } catch (error) {
      this.options.log.error({ err: error }, 'device notices failed');
      return 0;
    }
  }

  private async sendDue(now: Date): Promise<number> {
    const { timeZone } = this.options;
    const notices = (await deviceNotices(this.database, now, timeZone)).filter(
      (n) => n.phones.length > 0,
    );
    if (notices.length === 0) return 0;
    const day = dayIn(now, timeZone);
    const phoneIds = [...new Set(notices.flatMap((n) => n.phones.map((p) => p.id)))];
    const p = alarmPhones;
    const windows = new Map(
      (
        await this.database.db
          .select({
            id: p.id,
            dateType: p.dateType,
            period1Start: p.period1Start,
            period1End: p.period1End,
            period2Start: p.period2Start,
            period2End: p.period2End,
          })
          .from(p)
          .where(inArray(p.id, phoneIds))
      ).map((w) => [w.id, w]),
    );
    let sent = 0;
    for (const notice of notices)
      for (const phone of notice.phones) {
        const window = windows.get(phone.id);
        if (!window || !inWindow(window, now, timeZone)) continue;
        const claimed = await this.database.db
          .insert(deviceNoticeSends)
          .values({ planId: notice.plan.id, phoneId: phone.id, day, at: now })
          .onConflictDoNothing()
          .returning({ planId: deviceNoticeSends.planId });
        if (claimed.length === 0) continue;
        const ok = await this.deliver(notice, phone, now);
        await this.database.db
          .update(deviceNoticeSends)
          .set({ ok })
          .where(
            and(
              eq(deviceNoticeSends.planId, notice.plan.id),
              eq(deviceNoticeSends.phoneId, phone.id),
              eq(deviceNoticeSends.day, day),
            ),
          );
        sent += 1;
      }
    return sent;
  }

  private async deliver(
    notice: DeviceNotice,
    phone: DeviceNotice['phones'][number],
    now: Date,
  ): Promise<boolean> {
    const { plan } = notice;
    const words = WORDS[this.options.locale];
    const when = plan.plannedDate ? ` (${plan.plannedDate})` : '';
    const alarm: Alarm = {
      id: 0,
      houseId: plan.houseId,
      houseName: plan.houseName,
      // Not an alarm row: no id, and the channels read the farm's name only.
      farmId: 0,
      farmName: plan.farmName,
      state: 'active',
      cause: 'deviceError',
      severity: 'minor',
      subject: plan.deviceName,
      value: null,
      limit: null,
      text: `${plan.state === 'overdue' ? words.overdue : words.due}: ${plan.content}${when}`,
      raisedAt: now.toISOString(),
      acknowledgedAt: null,
      acknowledgedBy: null,
      ackComment: null,
      clearedAt: null,
      clearedBy: null,
      occurrences: 1,
    };
    const results = await Promise.allSettled(
      (CHANNELS_OF[phone.alarmType] ?? []).map((channel) =>
        this.options.adapters[channel].send(
          { alarm, phone: phone.phone, channel, sequence: 1, at: now.toISOString(), link: null },
          async () => undefined,
        ),
      ),
    );
    const ok = results.every((r) => r.status === 'fulfilled' && r.value.ok);
    if (!ok)
      this.options.log.warn({ planId: plan.id, phoneId: phone.id }, 'device notice not sent');
    return ok;
  }
}
