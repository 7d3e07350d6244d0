import { and, count, desc, eq, exists, gt, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  alarmAckSchema,
  alarmIdSchema,
  alarmListQuerySchema,
  alarmPageSchema,
  alarmSchema,
  alarmTodaySchema,
  notifyAttemptPageSchema,
  notifyAttemptQuerySchema,
  type NotifyAttempt,
} from '../../../src/contract/alarms';
import { scopeOf } from '../../auth/scope';
import type { Db } from '../../db/client';
import { alarmNotifyAttempts, alarmPhones, alarms } from '../../db/alarmSchema';
import { notifySilencedAlarms, notifySilences } from '../../db/notifySchema';
import { farms, houses } from '../../db/schema';
import { inScope } from '../access';
import { ALARM_FIELDS, presentAlarm } from '../lifecycle';
import { AlarmService, type ManualResult } from '../service';
import { alarmsTodayOf, openAlarmCountOf } from '../summaries';
import { sessionOf, sourceOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';

const REFUSALS: Record<
  Exclude<ManualResult, { ok: true }>['reason'],
  [404 | 409, 'alarms.notFound' | 'alarms.notActive' | 'alarms.notOpen' | 'alarms.notClearable']
> = {
  notFound: [404, 'alarms.notFound'],
  notActive: [409, 'alarms.notActive'],
  notOpen: [409, 'alarms.notOpen'],
  notClearable: [409, 'alarms.notClearable'],
};

/**
 * The alarm list's "Silenced" tag (server/notify/silences.ts): an open alarm is tagged while a
 * silence covers it at `now`, so the tag comes and goes with the silence; a cleared one keeps
 * the mark of a silence that held its notifications.
 */
function silencedAt(db: Db, now: Date) {
  const s = notifySilences;
  const covering = db
    .select({ one: sql`1` })
    .from(s)
    .where(
      and(
        eq(s.farmId, alarms.farmId),
        or(isNull(s.houseId), eq(s.houseId, alarms.houseId)),
        or(isNull(s.cause), eq(s.cause, alarms.cause)),
        isNull(s.endedAt),
        lte(s.startsAt, now),
        gt(s.endsAt, now),
      ),
    );
  const marked = db
    .select({ one: sql`1` })
    .from(notifySilencedAlarms)
    .where(eq(notifySilencedAlarms.alarmId, alarms.id));
  return sql<boolean>`case when ${ne(alarms.state, 'cleared')} then ${exists(covering)} else ${exists(marked)} end`;
}

/** The alarm count, list, acknowledge and clear, and the notification attempts. */
export function alarmListRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  const service = new AlarmService(database, ctx.events);
  return async (app) => {
    app.get(
      '/overview/alarmAmt/',
      {
        schema: {
          summary: 'How many alarms are open in your scope (the number the top bar shows)',
          response: answers(z.number().int().nonnegative()),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const scope = await scopeOf(database.db, sessionOf(request).user);
        return ok(request, reply, await openAlarmCountOf(database, scope));
      },
    );

    app.get(
      '/alarm/list',
      {
        schema: {
          summary:
            'A page of the alarms in your scope, filtered by place, cause, severity, state and time',
          querystring: alarmListQuerySchema,
          response: answers(alarmPageSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        const db = database.db;
        const where = and(
          inScope(scope, alarms.houseId),
          q.farmId ? eq(alarms.farmId, q.farmId) : undefined,
          q.houseId ? eq(alarms.houseId, q.houseId) : undefined,
          q.cause ? eq(alarms.cause, q.cause) : undefined,
          q.severity ? eq(alarms.severity, q.severity) : undefined,
          q.state === 'open'
            ? ne(alarms.state, 'cleared')
            : q.state !== 'all'
              ? eq(alarms.state, q.state)
              : undefined,
          q.from ? sql`${alarms.raisedAt} >= ${q.from}::timestamptz` : undefined,
          q.to ? sql`${alarms.raisedAt} < ${q.to}::timestamptz` : undefined,
        );
        const [total] = await db.select({ n: count() }).from(alarms).where(where);
        const rows = await db
          .select({ ...ALARM_FIELDS, silenced: silencedAt(db, new Date()) })
          .from(alarms)
          .innerJoin(houses, eq(houses.id, alarms.houseId))
          .innerJoin(farms, eq(farms.id, houses.farmId))
          .where(where)
          .orderBy(sql`${alarms.state} = 'cleared'`, desc(alarms.raisedAt), desc(alarms.id))
          .limit(q.size)
          .offset((q.page - 1) * q.size);
        // The "Silenced" tag (server/notify/silences.ts) only where there is one.
        const present = ({ silenced, ...r }: (typeof rows)[number]) =>
          silenced ? { ...presentAlarm(r), silenced: true } : presentAlarm(r);
        return ok(request, reply, { rows: rows.map(present), total: total?.n ?? 0 });
      },
    );

    app.post(
      '/alarm/acknowledge',
      {
        schema: {
          summary: 'Acknowledges an active alarm, with an optional comment',
          body: alarmAckSchema,
          response: answers(alarmSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const input = request.body;
        const { user } = sessionOf(request);
        const result = await service.acknowledge(
          input.id,
          { id: user.id, name: user.realName || user.username },
          await scopeOf(database.db, user),
          input.comment ? input.comment : null,
          sourceOf(request),
        );
        if (!result.ok) throw new ApiError(...REFUSALS[result.reason]);
        return ok(request, reply, result.alarm, 'alarms.acknowledged');
      },
    );

    app.post(
      '/alarm/clear',
      {
        schema: {
          summary: 'Clears by hand an open alarm whose end Roost cannot see by itself',
          body: alarmIdSchema,
          response: answers(alarmSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const input = request.body;
        const { user } = sessionOf(request);
        const result = await service.clearByHand(
          input.id,
          { id: user.id, name: user.realName || user.username },
          await scopeOf(database.db, user),
          sourceOf(request),
        );
        if (!result.ok) throw new ApiError(...REFUSALS[result.reason]);
        return ok(request, reply, result.alarm, 'alarms.cleared');
      },
    );

    /** The installation's day: the home dashboard and wall screen show it. */
    app.get(
      '/alarm/today',
      {
        schema: {
          summary: 'How many alarms of each cause were raised today in your scope',
          response: answers(alarmTodaySchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const scope = await scopeOf(database.db, sessionOf(request).user);
        return ok(request, reply, await alarmsTodayOf(database, scope, ctx.config.timeZone));
      },
    );

    app.get(
      '/alarm/attempts',
      {
        schema: {
          summary:
            'A page of the notification attempts in your scope and their results, newest first',
          querystring: notifyAttemptQuerySchema,
          response: answers(notifyAttemptPageSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        const db = database.db;
        const t = alarmNotifyAttempts;
        const where = and(
          inScope(scope, alarms.houseId),
          q.alarmId ? eq(t.alarmId, q.alarmId) : undefined,
        );
        const [total] = await db
          .select({ n: count() })
          .from(t)
          .innerJoin(alarms, eq(alarms.id, t.alarmId))
          .where(where);
        const rows = await db
          .select({
            id: t.id,
            alarmId: t.alarmId,
            phone: alarmPhones.phone,
            channel: t.channel,
            adapter: t.adapter,
            try: t.try,
            at: t.at,
            ok: t.ok,
            detail: t.detail,
          })
          .from(t)
          .innerJoin(alarms, eq(alarms.id, t.alarmId))
          .leftJoin(alarmPhones, eq(alarmPhones.id, t.phoneId))
          .where(where)
          .orderBy(desc(t.at), desc(t.id))
          .limit(q.size)
          .offset((q.page - 1) * q.size);
        const data: NotifyAttempt[] = rows.map((r) => ({
          ...r,
          phone: r.phone ?? '',
          at: r.at.toISOString(),
        }));
        return ok(request, reply, { rows: data, total: total?.n ?? 0 });
      },
    );
  };
}
