import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { escalate } from '../notify/escalation';
import type { GroupAdapter } from '../notify/group';
import { applyPrefs, prefsForPhone } from '../notify/prefs';
import { markSilenced, silenceCovering, SILENCE_RECHECK_MS } from '../notify/silences';
import { CHANNELS_OF, type Channel, type ChannelAdapter, type TryResult } from './channels';
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
  /** Robots and mailboxes: each hears an alarm once, with its first notification. */
  group?: readonly GroupAdapter[];
  /** The signed acknowledge link of an alarm for an entry; absent: messages carry no link. */
  linkOf?: (alarmId: number, phoneId: number, now: Date) => Promise<string | null>;
  timeZone: string;
  log: FastifyBaseLogger;
  now?: Clock;
  /** Called on every round: sends the day's maintenance notices (server/devices). */
  deviceNotices?: (now: Date) => Promise<number>;
  /** Called on every round: starts scheduled alarm drills and sends started ones (server/notify/drill.ts). */
  drills?: (now: Date) => Promise<number>;
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
 * and never send one notification twice. Claimed rows, and the channels of each, are sent side
 * by side: a provider that fails and is retried with back-off holds up no other channel. While
 * a silence covers the alarm its notifications wait (the alarm is marked); an alarm nobody
 * acknowledged by an entry's next repeat calls the entries of the next escalation level.
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

  /**
   * Looks at once, then every `intervalMs`: what a stopped process left due or claimed (a
   * notification, a drill's message) goes out as soon as the server is back.
   */
  start(intervalMs = DISPATCH_EVERY_MS): void {
    const round = () => {
      if (this.running) return;
      this.running = this.tick()
        .catch((error: unknown) => {
          this.options.log.error({ err: error }, 'alarm notification dispatch failed');
          return 0;
        })
        .finally(() => (this.running = null));
    };
    this.timer = setInterval(round, intervalMs);
    this.timer.unref();
    round();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Handles every notification due now; answers how many were sent. */
  async tick(): Promise<number> {
    let sent = (await this.options.deviceNotices?.(this.now())) ?? 0;
    sent += (await this.options.drills?.(this.now())) ?? 0;
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
      const counts = await Promise.all(claimed.map((row) => this.handle(row, now)));
      sent += counts.reduce((a, b) => a + b, 0);
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
    const alarm = await this.database.transaction(({ query: q }) => readAlarm(q, row.alarm_id));
    if (!phone || phone.status !== 'open') return finish('closed').then(() => 0);
    if (!alarm || alarm.state === 'cleared') return finish('cleared').then(() => 0);
    if (alarm.state === 'acknowledged' && phone.closable)
      return finish('acknowledged').then(() => 0);
    const silence = await silenceCovering(query, alarm, now);
    if (silence) {
      await markSilenced(query, row.alarm_id, silence.id, now);
      const recheck = Math.min(silence.endsAt.getTime(), now.getTime() + SILENCE_RECHECK_MS);
      await query(
        `update alarm_notifications set next_at = $2, claimed_until = null where id = $1`,
        [row.id, new Date(recheck)],
      );
      return 0;
    }
    if (!inWindow(phone, now, this.options.timeZone)) {
      const next = nextWindowStart(phone, now, this.options.timeZone);
      if (!next) return finish('noWindow').then(() => 0);
      await query(
        `update alarm_notifications set next_at = $2, claimed_until = null where id = $1`,
        [row.id, next],
      );
      return 0;
    }
    // A repeat that finds the alarm still unacknowledged is the moment to call the next level.
    if (row.sent >= 1 && alarm.state === 'active') await escalate(query, alarm, row.phone_id, now);
    // The person's own preferences (server/notify/prefs.ts): their farms, severities, channels
    // and quiet hours, which hold back all but critical alarms until they end.
    const wanted = applyPrefs(
      await prefsForPhone(query, phone.phone),
      alarm,
      CHANNELS_OF[phone.alarm_type] ?? [],
      now,
      this.options.timeZone,
    );
    if (wanted.kind === 'skip') return finish(wanted.reason).then(() => 0);
    if (wanted.kind === 'wait') {
      await query(
        `update alarm_notifications set next_at = $2, claimed_until = null where id = $1`,
        [row.id, wanted.until],
      );
      return 0;
    }
    const sequence = row.sent + 1;
    const link = (await this.options.linkOf?.(row.alarm_id, row.phone_id, now)) ?? null;
    const notification = { alarm, phone: phone.phone, sequence, at: now.toISOString(), link };
    const record =
      (channel: string, adapter: ChannelAdapter) => async (tryNo: number, result: TryResult) => {
        await query(
          `insert into alarm_notify_attempts (notification_id, alarm_id, phone_id, channel, adapter, try, at, ok, detail, provider_id)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
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
            result.ok ? (result.providerId ?? null) : null,
          ],
        );
      };
    const sends = wanted.channels.map((channel) => {
      const adapter = this.options.adapters[channel];
      return adapter.send({ ...notification, channel }, record(channel, adapter));
    });
    const group = this.options.group ?? [];
    if (group.length > 0 && sequence === 1) {
      const first = await query(
        `insert into notify_group_sends (alarm_id, at) values ($1, $2)
         on conflict (alarm_id) do nothing returning alarm_id`,
        [row.alarm_id, now],
      );
      if (first.length > 0)
        for (const adapter of group)
          sends.push(
            adapter.send(
              { ...notification, channel: 'sms', phone: '' },
              record(adapter.channel, adapter),
            ),
          );
    }
    // One channel's failure (thrown or answered) never stops the others.
    await Promise.allSettled(sends);
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
