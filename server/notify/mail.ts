import { and, eq, gt, notExists, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Alarm } from '../../src/contract/alarms';
import type { TryResult } from '../alarms/channels';
import { readAlarm } from '../alarms/service';
import { alarms } from '../db/alarmSchema';
import type { Database } from '../db/client';
import { notifyMailSends } from '../db/notifySchema';
import { ackLinkSecret, signMailToken } from './ackLink';
import type { EmailAdapter } from './email';
import { mailRecipients } from './mailRecipients';
import type { NotifyLocale } from './message';
import { silenceCovering } from './silences';

/** Alarms looked at per round: a burst is mailed over a few rounds, not in one long one. */
const MAIL_BATCH = 20;
/** An alarm older than this is not mailed any more: a restart after days mails no backlog. */
const MAIL_WITHIN_MS = 24 * 3_600_000;

/**
 * Alarm e-mail (ROOST_SMTP_URL). Every active alarm is mailed once, at the first round after
 * it is raised (or after the silence that held it ends), to the people `mailRecipients` names,
 * each with their own acknowledge link; whether an alarm phone entry covers the house does not
 * matter. The alarm's claim row (empty mailbox) makes one process mail it; each recipient's
 * row says what their mail came to. The dispatcher calls `send` every round.
 */
export class MailSender {
  private secret: Promise<Buffer> | null = null;

  constructor(
    private readonly database: Database,
    private readonly o: {
      email: EmailAdapter;
      /** ROOST_NOTIFY_EMAIL_TO: mailboxes that get every alarm. */
      listed: readonly string[];
      locale: NotifyLocale;
      timeZone: string;
      log: FastifyBaseLogger;
      /** The public address acknowledge links point at; null: mail carries no link. */
      publicUrl: string | null;
      linkHours: number;
    },
  ) {}

  /** Mails the alarms due now; answers how many mails went out. */
  async send(now: Date): Promise<number> {
    try {
      return await this.sendDue(now);
    } catch (error) {
      this.o.log.error({ err: error }, 'alarm e-mail failed');
      return 0;
    }
  }

  private async sendDue(now: Date): Promise<number> {
    const { db } = this.database;
    const m = notifyMailSends;
    const due = await db
      .select({ id: alarms.id })
      .from(alarms)
      .where(
        and(
          // The partial index of open alarms' predicate, word for word.
          sql`${alarms.state} <> 'cleared'`,
          eq(alarms.state, 'active'),
          gt(alarms.raisedAt, new Date(now.getTime() - MAIL_WITHIN_MS)),
          notExists(
            db
              .select({ one: sql`1` })
              .from(m)
              .where(eq(m.alarmId, alarms.id)),
          ),
        ),
      )
      .orderBy(alarms.raisedAt)
      .limit(MAIL_BATCH);
    let mailed = 0;
    for (const { id } of due) {
      const alarm = await this.database.transaction(({ db: d }) => readAlarm(d, id));
      if (!alarm || alarm.state !== 'active') continue;
      // Held while a silence covers it; the round after the silence ends mails it.
      if (await silenceCovering(db, alarm, now)) continue;
      const claimed = await db
        .insert(m)
        .values({ alarmId: id, mailbox: '', at: now, ok: true, detail: 'claimed' })
        .onConflictDoNothing()
        .returning({ alarmId: m.alarmId });
      if (claimed.length === 0) continue;
      mailed += await this.mail(alarm, now);
    }
    return mailed;
  }

  private async mail(alarm: Alarm, now: Date): Promise<number> {
    const { db } = this.database;
    const m = notifyMailSends;
    const people = await mailRecipients(db, alarm, this.o.listed);
    if (people.length === 0) return 0;
    await db
      .insert(m)
      .values(
        people.map((p) => ({ alarmId: alarm.id, mailbox: p.mailbox, userId: p.userId, at: now })),
      )
      .onConflictDoNothing();
    const results = await Promise.allSettled(
      people.map(async (p) => {
        const link = await this.linkOf(alarm.id, p.mailbox, now);
        const onTry = async (tryNo: number, result: TryResult) => {
          await db
            .update(m)
            .set({ tries: tryNo, ok: result.ok, detail: result.detail })
            .where(and(eq(m.alarmId, alarm.id), eq(m.mailbox, p.mailbox)));
        };
        const n = {
          alarm,
          phone: '',
          channel: 'sms' as const,
          sequence: 1,
          at: now.toISOString(),
          link,
        };
        const result = await this.o.email.send(p.mailbox, n, onTry);
        if (!result.ok)
          this.o.log.warn(
            { alarmId: alarm.id, mailbox: p.mailbox, detail: result.detail },
            'alarm e-mail not delivered',
          );
        return result.ok;
      }),
    );
    return results.filter((r) => r.status === 'fulfilled' && r.value).length;
  }

  private async linkOf(alarmId: number, mailbox: string, now: Date): Promise<string | null> {
    if (!this.o.publicUrl) return null;
    this.secret ??= ackLinkSecret(this.database);
    const expires = new Date(now.getTime() + this.o.linkHours * 3_600_000);
    return `${this.o.publicUrl}/ack/${signMailToken(await this.secret, alarmId, mailbox, expires)}`;
  }
}
