import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Alarm } from '../../src/contract/alarms';
import { CHANNELS_OF, type Channel, type ChannelAdapter, type TryResult } from '../alarms/channels';
import type { Database, Query } from '../db/client';
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
  return database.transaction(async ({ query: q }) => {
    const entries = await q<{ id: number; phone: string; alarm_type: string; level: number }>(
      `select p.id, p.phone, p.alarm_type, coalesce(l.level, 0) as level
       from alarm_phones p left join notify_phone_levels l on l.phone_id = p.id
       where p.status = 'open' and p.farm_id = $1 and (p.house_id is null or p.house_id = $2)
       order by coalesce(l.level, 0), p.id`,
      [house.farmId, house.houseId],
    );
    if (entries.length === 0) return null;
    const [drill] = await q<{ id: number }>(
      `insert into notify_drills (farm_id, house_id, started_by, scheduled, started_at)
       values ($1, $2, $3, $4, $5) returning id`,
      [house.farmId, house.houseId, by, scheduled, now],
    );
    for (const e of entries)
      for (const channel of CHANNELS_OF[e.alarm_type] ?? [])
        await q(
          `insert into notify_drill_receipts (drill_id, phone_id, phone, channel, level)
           values ($1, $2, $3, $4, $5)`,
          [drill!.id, e.id, e.phone, channel, Number(e.level)],
        );
    return drill!.id;
  });
}

/**
 * The person behind a confirm link confirms: every channel of their entry in that drill is
 * marked at `now` (the first confirmation counts; a second tap changes nothing).
 */
export async function confirmDrill(
  query: Query,
  drillId: number,
  phoneId: number,
  comment: string | null,
  now: Date,
): Promise<boolean> {
  const rows = await query(
    `update notify_drill_receipts set acknowledged_at = $3, ack_comment = $4
     where drill_id = $1 and phone_id = $2 and acknowledged_at is null returning phone_id`,
    [drillId, phoneId, now, comment],
  );
  return rows.length > 0;
}

/** A claimed drill receipt is this process's for this long: three tries of a hung provider fit. */
const DRILL_CLAIM_MS = 120_000;
/** Receipts claimed at a time. */
const DRILL_CLAIM_BATCH = 50;

interface ClaimedReceipt {
  drill_id: number;
  phone_id: number;
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
    const due = await this.database.query<{ house_id: number; farm_id: number; by: string }>(
      `select s.house_id, s.farm_id, s.created_by as by from notify_drill_schedules s
       where s.weekday = extract(dow from ($1::timestamptz at time zone $2))::int
         and s.time <= to_char($1::timestamptz at time zone $2, 'HH24:MI')
         and (s.last_run_at is null or s.last_run_at < $1::timestamptz - interval '1 day')`,
      [now, this.o.timeZone],
    );
    for (const s of due) {
      // Claimed first: a second process finds nothing left to start.
      const claimed = await this.database.query(
        `update notify_drill_schedules set last_run_at = $2 where house_id = $1
         and (last_run_at is null or last_run_at < $2::timestamptz - interval '1 day') returning house_id`,
        [s.house_id, now],
      );
      if (claimed.length > 0)
        await startDrill(
          this.database,
          { farmId: s.farm_id, houseId: s.house_id },
          s.by,
          true,
          now,
        );
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
      const claimed = await this.database.query<ClaimedReceipt>(
        `update notify_drill_receipts r set claimed_until = $2
         where (r.drill_id, r.phone_id, r.channel) in (
           select drill_id, phone_id, channel from notify_drill_receipts
           where tries = 0 and (claimed_until is null or claimed_until < $1)
           order by drill_id, phone_id, channel limit ${DRILL_CLAIM_BATCH} for update skip locked)
         returning r.drill_id, r.phone_id, r.phone, r.channel`,
        [now, new Date(now.getTime() + DRILL_CLAIM_MS)],
      );
      const byDrill = new Map<number, ClaimedReceipt[]>();
      for (const r of claimed) byDrill.set(r.drill_id, [...(byDrill.get(r.drill_id) ?? []), r]);
      for (const [drillId, receipts] of byDrill) await this.sendDrill(drillId, receipts, now);
      sent += claimed.length;
      if (claimed.length < DRILL_CLAIM_BATCH) return sent;
    }
  }

  private async sendDrill(drillId: number, receipts: ClaimedReceipt[], now: Date) {
    const [d] = await this.database.query<{
      farm_id: number;
      farm_name: string;
      house_id: number;
      house_name: string;
      started_at: Date | string;
    }>(
      `update notify_drills d set dispatched_at = coalesce(d.dispatched_at, $2) from farms f, houses h
       where d.id = $1 and f.id = d.farm_id and h.id = d.house_id
       returning d.farm_id, f.name as farm_name, d.house_id, h.name as house_name, d.started_at`,
      [drillId, now],
    );
    if (!d) return;
    const alarm = drillAlarm(
      {
        id: drillId,
        farmId: d.farm_id,
        farmName: d.farm_name,
        houseId: d.house_id,
        houseName: d.house_name,
      },
      new Date(d.started_at),
      this.o.locale,
    );
    const links = new Map<number, string | null>();
    for (const r of receipts)
      if (!links.has(r.phone_id))
        links.set(r.phone_id, await this.linkOf(drillId, r.phone_id, now));
    await Promise.allSettled(
      receipts.map((r) => {
        const adapter = this.o.adapters[r.channel];
        const onTry = async (tryNo: number, result: TryResult) => {
          await this.database.query(
            `update notify_drill_receipts set tries = $4, adapter = $5,
               sent_at = case when $6::boolean then $7::timestamptz else sent_at end,
               provider_id = coalesce($8, provider_id),
               failed_detail = case when $6::boolean then null else $9 end
             where drill_id = $1 and phone_id = $2 and channel = $3`,
            [
              drillId,
              r.phone_id,
              r.channel,
              tryNo,
              adapter.name,
              result.ok,
              this.clock(),
              result.ok ? (result.providerId ?? null) : null,
              result.detail,
            ],
          );
        };
        return adapter.send(
          {
            alarm,
            phone: r.phone,
            channel: r.channel,
            sequence: 1,
            at: now.toISOString(),
            link: links.get(r.phone_id) ?? null,
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
