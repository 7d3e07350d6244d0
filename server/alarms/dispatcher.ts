import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, isNull, lt, lte, not, or } from 'drizzle-orm';
import type { Database } from '../db/client';
import { alarmNotifications, alarmNotifyAttempts, alarmPhones } from '../db/alarmSchema';
import { notifyGroupSends } from '../db/notifySchema';
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
  /** Group robots: each hears an alarm once, with its first notification. */
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
  /** Called on every round: mails alarms to people (server/notify/mail.ts). */
  mail?: (now: Date) => Promise<number>;
}

interface Claimed {
  id: number;
  alarmId: number;
  phoneId: number;
  sent: number;
}

interface PhoneRow extends PhoneWindow {
  phone: string;
  status: string;
  closable: boolean;
  alarmType: string;
  repeatMinutes: number;
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
    sent += (await this.options.mail?.(this.now())) ?? 0;
    for (;;) {
      const now = this.now();
      const n = alarmNotifications;
      const due = this.database.db
        .select({ id: n.id })
        .from(n)
        .where(
          and(not(n.done), lte(n.nextAt, now), or(isNull(n.claimedUntil), lt(n.claimedUntil, now))),
        )
        .orderBy(asc(n.nextAt))
        .limit(CLAIM_BATCH)
        .for('update', { skipLocked: true });
      const claimed: Claimed[] = await this.database.db
        .update(n)
        .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS) })
        .where(inArray(n.id, due))
        .returning({ id: n.id, alarmId: n.alarmId, phoneId: n.phoneId, sent: n.sent });
      const counts = await Promise.all(claimed.map((row) => this.handle(row, now)));
      sent += counts.reduce((a, b) => a + b, 0);
      if (claimed.length < CLAIM_BATCH) return sent;
    }
  }

  private async handle(row: Claimed, now: Date): Promise<number> {
    const db = this.database.db;
    const n = alarmNotifications;
    const setNotification = (values: Partial<typeof n.$inferInsert>) =>
      db.update(n).set(values).where(eq(n.id, row.id));
    const finish = (reason: string) =>
      setNotification({ done: true, doneReason: reason, claimedUntil: null });
    /** Due again at `at`, and free for any process to claim then. */
    const later = (at: Date) => setNotification({ nextAt: at, claimedUntil: null });
    const [phone]: PhoneRow[] = await db
      .select({
        phone: alarmPhones.phone,
        status: alarmPhones.status,
        closable: alarmPhones.closable,
        alarmType: alarmPhones.alarmType,
        repeatMinutes: alarmPhones.repeatMinutes,
        dateType: alarmPhones.dateType,
        period1Start: alarmPhones.period1Start,
        period1End: alarmPhones.period1End,
        period2Start: alarmPhones.period2Start,
        period2End: alarmPhones.period2End,
      })
      .from(alarmPhones)
      .where(eq(alarmPhones.id, row.phoneId));
    const alarm = await this.database.transaction(({ db: d }) => readAlarm(d, row.alarmId));
    if (!phone || phone.status !== 'open') return finish('closed').then(() => 0);
    if (!alarm || alarm.state === 'cleared') return finish('cleared').then(() => 0);
    if (alarm.state === 'acknowledged' && phone.closable)
      return finish('acknowledged').then(() => 0);
    const silence = await silenceCovering(db, alarm, now);
    if (silence) {
      await markSilenced(db, row.alarmId, silence.id, now);
      const recheck = Math.min(silence.endsAt.getTime(), now.getTime() + SILENCE_RECHECK_MS);
      await later(new Date(recheck));
      return 0;
    }
    if (!inWindow(phone, now, this.options.timeZone)) {
      const next = nextWindowStart(phone, now, this.options.timeZone);
      if (!next) return finish('noWindow').then(() => 0);
      await later(next);
      return 0;
    }
    // A repeat that finds the alarm still unacknowledged is the moment to call the next level.
    if (row.sent >= 1 && alarm.state === 'active') await escalate(db, alarm, row.phoneId, now);
    // The person's own preferences (server/notify/prefs.ts): their farms, severities, channels
    // and quiet hours, which hold back all but critical alarms until they end.
    const wanted = applyPrefs(
      await prefsForPhone(db, phone.phone),
      alarm,
      CHANNELS_OF[phone.alarmType] ?? [],
      now,
      this.options.timeZone,
    );
    if (wanted.kind === 'skip') return finish(wanted.reason).then(() => 0);
    if (wanted.kind === 'wait') {
      await later(wanted.until);
      return 0;
    }
    const sequence = row.sent + 1;
    const link = (await this.options.linkOf?.(row.alarmId, row.phoneId, now)) ?? null;
    const notification = { alarm, phone: phone.phone, sequence, at: now.toISOString(), link };
    const record =
      (channel: string, adapter: ChannelAdapter) => async (tryNo: number, result: TryResult) => {
        await db.insert(alarmNotifyAttempts).values({
          notificationId: row.id,
          alarmId: row.alarmId,
          phoneId: row.phoneId,
          channel,
          adapter: adapter.name,
          try: tryNo,
          at: this.now(),
          ok: result.ok,
          detail: result.detail,
          providerId: result.ok ? (result.providerId ?? null) : null,
        });
      };
    const sends = wanted.channels.map((channel) => {
      const adapter = this.options.adapters[channel];
      return adapter.send({ ...notification, channel }, record(channel, adapter));
    });
    const group = this.options.group ?? [];
    if (group.length > 0 && sequence === 1) {
      const first = await db
        .insert(notifyGroupSends)
        .values({ alarmId: row.alarmId, at: now })
        .onConflictDoNothing({ target: notifyGroupSends.alarmId })
        .returning({ alarmId: notifyGroupSends.alarmId });
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
    if (phone.repeatMinutes > 0) {
      await setNotification({
        sent: sequence,
        nextAt: new Date(now.getTime() + phone.repeatMinutes * 60_000),
        claimedUntil: null,
      });
    } else {
      await setNotification({ sent: sequence });
      await finish('sent');
    }
    return 1;
  }
}
