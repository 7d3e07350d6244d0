import { and, eq } from 'drizzle-orm';
import {
  ackByLinkSchema,
  ackPageSchema,
  ackTokenSchema,
  type AckPage,
} from '../../../src/contract/notify';
import { AlarmService, readAlarm } from '../../alarms/service';
import type { Scope } from '../../auth/scope';
import { alarmPhones } from '../../db/alarmSchema';
import { notifyDrillReceipts, notifyDrills } from '../../db/notifySchema';
import type { Db } from '../../db/client';
import { farms, houses } from '../../db/schema';
import { sourceOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { answers, type RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { checkAckToken, checkMailToken, existingAckLinkSecret, isMailToken } from '../ackLink';
import { mailboxPerson } from '../mailRecipients';
import { alarmUnit } from '../message';
import { checkDrillToken, confirmDrill, isDrillToken } from '../drill';

/** An entry's link acknowledges as the entry's phone number. */
async function phoneOfEntry(db: Db, phoneId: number) {
  const [row] = await db
    .select({ phone: alarmPhones.phone })
    .from(alarmPhones)
    .where(eq(alarmPhones.id, phoneId));
  return row ? { id: null, name: row.phone } : null;
}

/**
 * The signed acknowledge link: a page anyone holding the link may open without signing in,
 * for that one alarm, until the link expires. A tampered link and an expired one are refused
 * alike for every alarm (403), and say nothing about the alarm.
 */
export function ackRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  const { db } = database;
  const service = new AlarmService(database, ctx.events);
  /** Kept once found; until a link was signed there is no key, and no token can be valid. */
  let secret: Buffer | null = null;

  /** Who a valid link acknowledges as: the entry's number, or the mailbox's person. */
  const check = async (token: string) => {
    secret ??= await existingAckLinkSecret(database);
    const now = new Date();
    const invalid = { ok: false, reason: 'invalid' } as const;
    const result = !secret
      ? invalid
      : isMailToken(token)
        ? checkMailToken(secret, token, now)
        : checkAckToken(secret, token, now);
    if (!result.ok)
      throw new Refusal(
        'forbidden',
        result.reason === 'expired' ? 'notify.linkExpired' : 'notify.linkInvalid',
      );
    const alarm = await database.transaction(({ db }) => readAlarm(db, result.alarmId));
    const who =
      'mailbox' in result
        ? await mailboxPerson(db, result.mailbox)
        : await phoneOfEntry(db, result.phoneId);
    if (!alarm || !who) throw new Refusal('notFound', 'alarms.notFound');
    return { alarm, expiresAt: result.expiresAt, who };
  };

  const pageOf = (
    alarm: NonNullable<Awaited<ReturnType<typeof readAlarm>>>,
    expiresAt: Date,
  ): AckPage => ({
    alarmId: alarm.id,
    cause: alarm.cause,
    severity: alarm.severity,
    farmName: alarm.farmName,
    houseName: alarm.houseName,
    value: alarm.value,
    limit: alarm.limit,
    unit: alarmUnit(alarm),
    text: alarm.text,
    state: alarm.state,
    raisedAt: alarm.raisedAt,
    acknowledgedAt: alarm.acknowledgedAt,
    acknowledgedBy: alarm.acknowledgedBy,
    ackComment: alarm.ackComment,
    expiresAt: expiresAt.toISOString(),
  });

  /** A drill's confirm link: the same page, marked as a drill, for that drill and person. */
  const drillPage = async (token: string, confirm: { comment: string | null } | null) => {
    secret ??= await existingAckLinkSecret(database);
    const now = new Date();
    const result: ReturnType<typeof checkDrillToken> = secret
      ? checkDrillToken(secret, token, now)
      : { ok: false, reason: 'invalid' };
    if (!result.ok)
      throw new Refusal(
        'forbidden',
        result.reason === 'expired' ? 'notify.linkExpired' : 'notify.linkInvalid',
      );
    if (confirm) await confirmDrill(db, result.drillId, result.phoneId, confirm.comment, now);
    const r = notifyDrillReceipts;
    const [row] = await db
      .select({
        farmName: farms.name,
        houseName: houses.name,
        startedAt: notifyDrills.startedAt,
        phone: r.phone,
        acknowledgedAt: r.acknowledgedAt,
        ackComment: r.ackComment,
      })
      .from(notifyDrills)
      .innerJoin(farms, eq(farms.id, notifyDrills.farmId))
      .innerJoin(houses, eq(houses.id, notifyDrills.houseId))
      .innerJoin(r, and(eq(r.drillId, notifyDrills.id), eq(r.phoneId, result.phoneId)))
      .where(eq(notifyDrills.id, result.drillId))
      .limit(1);
    if (!row) throw new Refusal('notFound', 'http.notFound');
    const page: AckPage = {
      alarmId: result.drillId,
      cause: 'temperatureHigh',
      severity: 'critical',
      farmName: row.farmName,
      houseName: row.houseName,
      value: null,
      limit: null,
      unit: '',
      text: null,
      state: row.acknowledgedAt === null ? 'active' : 'acknowledged',
      raisedAt: row.startedAt.toISOString(),
      acknowledgedAt: row.acknowledgedAt === null ? null : row.acknowledgedAt.toISOString(),
      acknowledgedBy: row.acknowledgedAt === null ? null : row.phone,
      ackComment: row.ackComment,
      expiresAt: result.expiresAt.toISOString(),
      drill: true,
    };
    return page;
  };

  return async (app) => {
    app.get(
      '/notify/ack/:token',
      {
        schema: {
          summary: 'The alarm (or drill) a signed acknowledge link is for, without signing in',
          params: ackTokenSchema,
          response: answers(ackPageSchema),
        },
        config: { public: true },
      },
      async (request, reply) => {
        const { token } = request.params;
        if (isDrillToken(token)) return ok(request, reply, await drillPage(token, null));
        const link = await check(token);
        return ok(request, reply, pageOf(link.alarm, link.expiresAt));
      },
    );

    app.post(
      '/notify/ack',
      {
        schema: {
          summary:
            "Acknowledges the alarm of a signed link (or confirms the drill's), without signing in",
          body: ackByLinkSchema,
          response: answers(ackPageSchema),
        },
        config: { public: true },
      },
      async (request, reply) => {
        const input = request.body;
        if (isDrillToken(input.token)) {
          const page = await drillPage(input.token, { comment: input.comment || null });
          return ok(request, reply, page, 'notify.drillConfirmed');
        }
        const link = await check(input.token);
        // The link's whole scope is its one alarm.
        const scope: Scope = {
          all: false,
          farmIds: new Set([link.alarm.farmId]),
          houseIds: new Set([link.alarm.houseId]),
        };
        const result = await service.acknowledge(
          link.alarm.id,
          link.who,
          scope,
          input.comment ? input.comment : null,
          sourceOf(request) === 'computer' ? 'mobile' : sourceOf(request),
        );
        if (!result.ok)
          throw new Refusal(
            result.reason === 'notFound' ? 'notFound' : 'conflict',
            result.reason === 'notFound' ? 'alarms.notFound' : 'alarms.notActive',
          );
        return ok(request, reply, pageOf(result.alarm, link.expiresAt), 'alarms.acknowledged');
      },
    );
  };
}
