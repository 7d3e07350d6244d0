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
import { scopeWhere } from '../access';
import { silencedSql } from '../../notify/silences';
import { ALARM_FROM, ALARM_SELECT, presentAlarm, type AlarmRow } from '../lifecycle';
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
        const params: unknown[] = [];
        const where = [scopeWhere(scope, params)];
        if (q.farmId) where.push(`a.farm_id = $${params.push(q.farmId)}`);
        if (q.houseId) where.push(`a.house_id = $${params.push(q.houseId)}`);
        if (q.cause) where.push(`a.cause = $${params.push(q.cause)}`);
        if (q.severity) where.push(`a.severity = $${params.push(q.severity)}`);
        if (q.state === 'open') where.push(`a.state <> 'cleared'`);
        else if (q.state !== 'all') where.push(`a.state = $${params.push(q.state)}`);
        if (q.from) where.push(`a.raised_at >= $${params.push(q.from)}`);
        if (q.to) where.push(`a.raised_at < $${params.push(q.to)}`);
        const sqlWhere = where.join(' and ');
        const [count] = await database.query<{ n: number }>(
          `select count(*)::int as n from alarms a where ${sqlWhere}`,
          params,
        );
        const nowParam = `$${params.push(new Date())}`;
        const rows = await database.query<AlarmRow & { silenced: boolean }>(
          `select ${ALARM_SELECT}, ${silencedSql(nowParam)} as silenced
         from ${ALARM_FROM} where ${sqlWhere}
         order by (a.state = 'cleared'), a.raised_at desc, a.id desc
         limit ${q.size} offset ${(q.page - 1) * q.size}`,
          params,
        );
        // The "Silenced" tag (server/notify/silences.ts) only where there is one.
        const present = (r: AlarmRow & { silenced: boolean }) =>
          r.silenced ? { ...presentAlarm(r), silenced: true } : presentAlarm(r);
        return ok(request, reply, { rows: rows.map(present), total: Number(count?.n ?? 0) });
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
        const params: unknown[] = [];
        const where = [scopeWhere(scope, params)];
        if (q.alarmId) where.push(`t.alarm_id = $${params.push(q.alarmId)}`);
        const from = `alarm_notify_attempts t join alarms a on a.id = t.alarm_id left join alarm_phones p on p.id = t.phone_id
        where ${where.join(' and ')}`;
        const [count] = await database.query<{ n: number }>(
          `select count(*)::int as n from ${from}`,
          params,
        );
        const rows = await database.query<{
          id: number;
          alarm_id: number;
          phone: string | null;
          channel: string;
          adapter: string;
          try: number;
          at: Date | string;
          ok: boolean;
          detail: string;
        }>(
          `select t.id, t.alarm_id, p.phone, t.channel, t.adapter, t.try, t.at, t.ok, t.detail from ${from}
         order by t.at desc, t.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`,
          params,
        );
        const data: NotifyAttempt[] = rows.map((r) => ({
          id: Number(r.id),
          alarmId: r.alarm_id,
          phone: r.phone ?? '',
          channel: r.channel,
          adapter: r.adapter,
          try: r.try,
          at: new Date(r.at).toISOString(),
          ok: r.ok,
          detail: r.detail,
        }));
        return ok(request, reply, { rows: data, total: Number(count?.n ?? 0) });
      },
    );
  };
}
