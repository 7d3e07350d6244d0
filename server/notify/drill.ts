import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Alarm } from '../../src/contract/alarms';
import { CHANNELS_OF, type Channel, type ChannelAdapter, type TryResult } from '../alarms/channels';
import { alarmPhones } from '../db/alarmSchema';
import type { Database, Db } from '../db/client';
import {
  notifyDrillReceipts,
  notifyDrills,
  notifyDrillSchedules,
  notifyPhoneLevels,
} from '../db/notifySchema';
import { farms, houses } from '../db/schema';
import { ackLinkSecret } from './ackLink';
import type { NotifyLocale } from './message';

/**
 * Alarm drills. A drill is a test alarm for one house sent to every open alarm phone entry that
 * covers the house (every escalation level at once, inside or outside its periods, whatever the
 * person's preferences say: a drill proves each person can be reached, and a filter would hide
 * exactly the failures it is for). Each entry × channel is a receipt: sent, delivered where the
 * provider reports it, confirmed through its own signed link. Drills never touch the alarms
 * table, so no statistics, reminder or alarm list counts them.
 */

const WORDS = {
  en: { house: '[DRILL]', text: 'Alarm drill, not a real alarm: please confirm with the link' },
  zh: { house: '【演练】', text: '报警演练，非真实报警，请点击链接确认' },
} as const;

/**
 * The alarm the providers' templates are filled from: the house's name marked as a drill and
 * the drill's sentence as the value. SMS providers accept only approved templates, so the drill
 * rides the alarm template (a critical temperature alarm, the one that must never be missed).
 */
export function drillAlarm(
  d: { id: number; farmId: number; farmName: string; houseId: number; houseName: string },
  startedAt: Date,
  locale: NotifyLocale,
): Alarm {
  return {
    id: 0,
    houseId: d.houseId,
    houseName: `${WORDS[locale].house} ${d.houseName}`,
    farmId: d.farmId,
    farmName: d.farmName,
    cause: 'temperatureHigh',
    severity: 'critical',
    subject: 'drill',
    value: null,
    limit: null,
    text: WORDS[locale].text,
    state: 'active',
    raisedAt: startedAt.toISOString(),
    acknowledgedAt: null,
    acknowledgedBy: null,
    ackComment: null,
    clearedAt: null,
    clearedBy: null,
    occurrences: 1,
  };
}

const mac = (secret: Buffer, body: string) =>
  createHmac('sha256', secret).update(`drill.${body}`).digest('base64url');

/**
 * A drill's confirm link token, `d<drill>.<entry>.<expiry in s>.<HMAC-SHA256>`: signed with the
 * acknowledge links' key under its own prefix, so no alarm token passes as a drill's or back.
 */
export function signDrillToken(secret: Buffer, drillId: number, phoneId: number, expiresAt: Date) {
  const body = `${drillId}.${phoneId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `d${body}.${mac(secret, body)}`;
}

export type DrillTokenCheck =
  | { ok: true; drillId: number; phoneId: number; expiresAt: Date }
  | { ok: false; reason: 'invalid' | 'expired' };

export const isDrillToken = (token: string) => token.startsWith('d');

export function checkDrillToken(secret: Buffer, token: string, now: Date): DrillTokenCheck {
  const parts = token.slice(1).split('.');
  if (parts.length !== 4 || !parts.slice(0, 3).every((p) => /^\d{1,12}$/.test(p)))
    return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(mac(secret, parts.slice(0, 3).join('.')));
  const given = Buffer.from(parts[3]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' };
  const expiresAt = new Date(Number(parts[2]) * 1000);
  if (expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, drillId: Number(parts[0]), phoneId: Number(parts[1]), expiresAt };
}

/**
 * Starts a drill for the house: one receipt per open entry covering it and channel of the
 * entry. Answers the drill's id, or null when no entry covers the house (nobody to drill).
 * The receipts are sent by the dispatcher's next round (`DrillSender`).
 */
export async function startDrill(
  database: Database,
  house: { farmId: number; houseId: number },
  by: string,
  scheduled: boolean,
  now: Date,
): Promise<number | null> {
  return database.transaction(async ({ db }) => {
    const level = sql<number>`coalesce(${notifyPhoneLevels.level}, 0)`.mapWith(Number);
    const entries = await db
      .select({
        id: alarmPhones.id,
        phone: alarmPhones.phone,
        alarmType: alarmPhones.alarmType,
        level,
      })
      .from(alarmPhones)
      .leftJoin(notifyPhoneLevels, eq(notifyPhoneLevels.phoneId, alarmPhones.id))
      .where(
        and(
          eq(alarmPhones.status, 'open'),
          eq(alarmPhones.farmId, house.farmId),
          or(isNull(alarmPhones.houseId), eq(alarmPhones.houseId, house.houseId)),
        ),
      )
      .orderBy(level, alarmPhones.id);
    if (entries.length === 0) return null;
    const [drill] = await db
      .insert(notifyDrills)
      .values({
        farmId: house.farmId,
        houseId: house.houseId,
        startedBy: by,
        scheduled,
        startedAt: now,
      })
      .returning({ id: notifyDrills.id });
    const receipts = entries.flatMap((e) =>
      (CHANNELS_OF[e.alarmType] ?? []).map((channel) => ({
        drillId: drill!.id,
        phoneId: e.id,
        phone: e.phone,
        channel,
        level: e.level,
      })),
    );
    if (receipts.length > 0) await db.insert(notifyDrillReceipts).values(receipts);
    return drill!.id;
  });
}

/**
 * The person behind a confirm link confirms: every channel of their entry in that drill is
 * marked at `now` (the first confirmation counts; a second tap changes nothing).
 */
export async function confirmDrill(
  db: Db,
  drillId: number,
  phoneId: number,
  comment: string | null,
  now: Date,
): Promise<boolean> {
  const r = notifyDrillReceipts;
  const rows = await db
    .update(r)
    .set({ acknowledgedAt: now, ackComment: comment })
    .where(and(eq(r.drillId, drillId), eq(r.phoneId, phoneId), isNull(r.acknowledgedAt)))
    .returning({ phoneId: r.phoneId });
  return rows.length > 0;
}

/** A claimed drill receipt is this process's for this long: three tries of a hung provider fit. */
const DRILL_CLAIM_MS = 120_000;
/** Receipts claimed at a time. */
const DRILL_CLAIM_BATCH = 50;

interface ClaimedReceipt {
  drillId: number;
  phoneId: number;
  phone: string;
  channel: Channel;
}

/**
 * Sends drills that are due: started ones' receipts not yet sent (each claimed by one process), and the
 * weekly schedules whose minute has come. The alarm dispatcher calls `send` every round.
 */
export class DrillSender {
  constructor(
    private readonly database: Database,
    private readonly o: {
      adapters: Record<Channel, ChannelAdapter>;
      locale: NotifyLocale;
      timeZone: string;
      log: FastifyBaseLogger;
      /** The public address confirm links point at; absent: messages carry no link. */
      publicUrl?: string | null;
      linkHours?: number;
      /** The clock receipts are timed by (tests move it). */
      now?: () => Date;
    },
  ) {
    this.clock = o.now ?? (() => new Date());
  }

  private readonly clock: () => Date;

  async send(now: Date): Promise<number> {
    try {
      await this.startScheduled(now);
      return await this.sendStarted(now);
    } catch (error) {
      this.o.log.error({ err: error }, 'alarm drill failed');
      return 0;
    }
  }

  private async startScheduled(now: Date) {
    const { db } = this.database;
    const s = notifyDrillSchedules;
    const local = sql`(${now}::timestamptz at time zone ${this.o.timeZone})`;
    // Not run within the last day: one minute never starts two.
    const notRunToday = or(
      isNull(s.lastRunAt),
      lt(s.lastRunAt, sql`${now}::timestamptz - interval '1 day'`),
    );
    const due = await db
      .select({ houseId: s.houseId, farmId: s.farmId, by: s.createdBy })
      .from(s)
      .where(
        and(
          eq(s.weekday, sql`extract(dow from ${local})::int`),
          lte(s.time, sql`to_char(${local}, 'HH24:MI')`),
          notRunToday,
        ),
      );
    for (const d of due) {
      // Claimed first: a second process finds nothing left to start.
      const claimed = await db
        .update(s)
        .set({ lastRunAt: now })
        .where(and(eq(s.houseId, d.houseId), notRunToday))
        .returning({ houseId: s.houseId });
      if (claimed.length > 0)
        await startDrill(this.database, { farmId: d.farmId, houseId: d.houseId }, d.by, true, now);
    }
  }

  /**
   * Claims receipts never tried (`tries` 0) whose claim is free or ran out, a batch at a time
   * over SKIP LOCKED like the notification queue: each goes out once however many processes
   * run, and one a crashed process had claimed but not sent goes out after its claim ends.
   * A receipt tried once is done, sent or failed (the adapter's own retries are within it).
   */
  private async sendStarted(now: Date): Promise<number> {
    let sent = 0;
    for (;;) {
      const r = notifyDrillReceipts;
      const batch = this.database.db
        .select({ drillId: r.drillId, phoneId: r.phoneId, channel: r.channel })
        .from(r)
        .where(and(eq(r.tries, 0), or(isNull(r.claimedUntil), lt(r.claimedUntil, now))))
        .orderBy(r.drillId, r.phoneId, r.channel)
        .limit(DRILL_CLAIM_BATCH)
        .for('update', { skipLocked: true });
      const claimed: ClaimedReceipt[] = await this.database.db
        .update(r)
        .set({ claimedUntil: new Date(now.getTime() + DRILL_CLAIM_MS) })
        .where(sql`(${r.drillId}, ${r.phoneId}, ${r.channel}) in ${batch}`)
        .returning({
          drillId: r.drillId,
          phoneId: r.phoneId,
          phone: r.phone,
          channel: sql<Channel>`${r.channel}`,
        });
      const byDrill = new Map<number, ClaimedReceipt[]>();
      for (const c of claimed) byDrill.set(c.drillId, [...(byDrill.get(c.drillId) ?? []), c]);
      for (const [drillId, receipts] of byDrill) await this.sendDrill(drillId, receipts, now);
      sent += claimed.length;
      if (claimed.length < DRILL_CLAIM_BATCH) return sent;
    }
  }

  private async sendDrill(drillId: number, receipts: ClaimedReceipt[], now: Date) {
    const { db } = this.database;
    const [d] = await db
      .update(notifyDrills)
      .set({ dispatchedAt: sql`coalesce(${notifyDrills.dispatchedAt}, ${now}::timestamptz)` })
      // Farms and houses crossed: the where picks the drill's own two (an update's joins may
      // not name the table updated).
      .from(farms)
      .innerJoin(houses, sql`true`)
      .where(
        and(
          eq(notifyDrills.id, drillId),
          eq(farms.id, notifyDrills.farmId),
          eq(houses.id, notifyDrills.houseId),
        ),
      )
      .returning({
        farmId: notifyDrills.farmId,
        farmName: farms.name,
        houseId: notifyDrills.houseId,
        houseName: houses.name,
        startedAt: notifyDrills.startedAt,
      });
    if (!d) return;
    const alarm = drillAlarm({ id: drillId, ...d }, d.startedAt, this.o.locale);
    const links = new Map<number, string | null>();
    for (const r of receipts)
      if (!links.has(r.phoneId)) links.set(r.phoneId, await this.linkOf(drillId, r.phoneId, now));
    await Promise.allSettled(
      receipts.map((r) => {
        const adapter = this.o.adapters[r.channel];
        const onTry = async (tryNo: number, result: TryResult) => {
          const t = notifyDrillReceipts;
          await db
            .update(t)
            .set({
              tries: tryNo,
              adapter: adapter.name,
              // A failed try keeps an earlier sent time and provider id; it says why it failed.
              ...(result.ok
                ? { sentAt: this.clock(), failedDetail: null }
                : { failedDetail: result.detail }),
              ...(result.ok && result.providerId !== undefined
                ? { providerId: result.providerId }
                : {}),
            })
            .where(and(eq(t.drillId, drillId), eq(t.phoneId, r.phoneId), eq(t.channel, r.channel)));
        };
        return adapter.send(
          {
            alarm,
            phone: r.phone,
            channel: r.channel,
            sequence: 1,
            at: now.toISOString(),
            link: links.get(r.phoneId) ?? null,
          },
          onTry,
        );
      }),
    );
  }

  private secret: Promise<Buffer> | null = null;
  private async linkOf(drillId: number, phoneId: number, now: Date): Promise<string | null> {
    if (!this.o.publicUrl) return null;
    this.secret ??= ackLinkSecret(this.database);
    const expires = new Date(now.getTime() + (this.o.linkHours ?? 24) * 3_600_000);
    return `${this.o.publicUrl}/ack/${signDrillToken(await this.secret, drillId, phoneId, expires)}`;
  }
}
