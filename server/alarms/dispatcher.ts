import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { CHANNELS_OF, type Channel, type ChannelAdapter } from './channels';
import { inWindow, nextWindowStart, type PhoneWindow } from './schedule';
import { readAlarm, systemClock, type Clock } from './service';

/** The dispatcher looks for due notifications this often: a minute's repeat stays on time. */
export const DISPATCH_EVERY_MS = 5_000;
/** A claimed notification is this process's for this long (the webhook's tries fit in it). */
const CLAIM_MS = 60_000;
/** Notifications handled per claim: one slow receiver must not hold up the rest for long. */
const CLAIM_BATCH = 20;

export interface DispatcherOptions {
  adapters: Record<Channel, ChannelAdapter>;
  timeZone: string;
  log: FastifyBaseLogger;
  now?: Clock;
}

interface Claimed {
  id: number;
  alarm_id: number;
  phone_id: number;
  sent: number;
}

interface PhoneRow extends PhoneWindow {
  phone: string;
  status: string;
  closable: boolean;
  alarm_type: string;
  repeat_minutes: number;
}

/**
 * Sends what the notification queue holds, honouring each alarm phone entry: only inside its
 * periods and date type, after its delay (the queue's first due time), again every repeat
 * interval until the alarm is acknowledged (when the entry is closable) or cleared. Due rows
 * are claimed with a conditional update over SKIP LOCKED, so several processes share the work
 * and never send one notification twice.
 */
export class NotificationDispatcher {
  private readonly now: Clock;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly database: Database,
    private readonly options: DispatcherOptions,
  ) {
    this.now = options.now ?? systemClock;
  }

  start(intervalMs = DISPATCH_EVERY_MS): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tick()
        .catch((error: unknown) => {
          this.options.log.error({ err: error }, 'alarm notification dispatch failed');
          return 0;
        })
        .finally(() => (this.running = null));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Handles every notification due now; answers how many were sent. */
  async tick(): Promise<number> {
    let sent = 0;
    for (;;) {
      const now = this.now();
      const claimed = await this.database.query<Claimed>(
        `update alarm_notifications n set claimed_until = $2
         where n.id in (
           select id from alarm_notifications
           where not done and next_at <= $1 and (claimed_until is null or claimed_until < $1)
           order by next_at limit ${CLAIM_BATCH} for update skip locked)
         returning n.id, n.alarm_id, n.phone_id, n.sent`,
        [now, new Date(now.getTime() + CLAIM_MS)],
      );
      for (const row of claimed) sent += await this.handle(row, now);
      if (claimed.length < CLAIM_BATCH) return sent;
    }
  }

  private async handle(row: Claimed, now: Date): Promise<number> {
    const query = this.database.query;
    const finish = (reason: string) =>
      query(
        `update alarm_notifications set done = true, done_reason = $2, claimed_until = null where id = $1`,
        [row.id, reason],
      );
    const [phone] = await query<PhoneRow>(
      `select phone, status, closable, alarm_type, repeat_minutes, date_type as "dateType",
         period1_start as "period1Start", period1_end as "period1End",
         period2_start as "period2Start", period2_end as "period2End"
       from alarm_phones where id = $1`,
      [row.phone_id],
    );
    const alarm = await this.database.transaction((q) => readAlarm(q, row.alarm_id));
    if (!phone || phone.status !== 'open') return finish('closed').then(() => 0);
    if (!alarm || alarm.state === 'cleared') return finish('cleared').then(() => 0);
    if (alarm.state === 'acknowledged' && phone.closable)
      return finish('acknowledged').then(() => 0);
    if (!inWindow(phone, now, this.options.timeZone)) {
      const next = nextWindowStart(phone, now, this.options.timeZone);
      if (!next) return finish('noWindow').then(() => 0);
      await query(
        `update alarm_notifications set next_at = $2, claimed_until = null where id = $1`,
        [row.id, next],
      );
      return 0;
    }
    const sequence = row.sent + 1;
    for (const channel of CHANNELS_OF[phone.alarm_type] ?? []) {
      const adapter = this.options.adapters[channel];
      await adapter.send(
        { alarm, phone: phone.phone, channel, sequence, at: now.toISOString() },
        async (tryNo, result) => {
          await query(
            `insert into alarm_notify_attempts (notification_id, alarm_id, phone_id, channel, adapter, try, at, ok, detail)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [
              row.id,
              row.alarm_id,
              row.phone_id,
              channel,
              adapter.name,
              tryNo,
              this.now(),
              result.ok,
              result.detail,
            ],
          );
        },
      );
    }
    if (phone.repeat_minutes > 0) {
      await query(
        `update alarm_notifications set sent = $2, next_at = $3, claimed_until = null where id = $1`,
        [row.id, sequence, new Date(now.getTime() + phone.repeat_minutes * 60_000)],
      );
    } else {
      await query(`update alarm_notifications set sent = $2 where id = $1`, [row.id, sequence]);
      await finish('sent');
    }
    return 1;
  }
}
