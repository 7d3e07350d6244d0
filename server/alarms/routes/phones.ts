import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idSchema } from '../../../src/contract/ids';
import {
  alarmPhoneInputSchema,
  alarmPhoneUpdateSchema,
  type AlarmPhone,
} from '../../../src/contract/alarms';
import { alarmPhoneSchema, deleteResultSchema } from '../../../src/contract/adminAnswers';
import { pagedSchema } from '../../../src/contract/paged';
import { canSeeFarm, canSeeHouse, type Scope } from '../../auth/scope';
import { sessionOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { ANY_ROLE, answers, bodyOrQuery, type RoutePlugin } from '../../http/routeSchema';
import { parseJson } from '../../db/jsonColumn';
import { mayCoverWholeFarm } from '../access';
import { idBody, settingsContext } from './settingsShared';

const phoneQuery = z.object({
  farmId: idSchema.optional(),
  houseId: idSchema.optional(),
});

const PHONE_SELECT = `p.id, p.farm_id as "farmId", p.house_id as "houseId", p.phone, p.period1_start as "period1Start",
  p.period1_end as "period1End", p.period2_start as "period2Start", p.period2_end as "period2End",
  p.date_type as "dateType", p.repeat_minutes as "repeatMinutes", p.closable, p.alarm_type as "alarmType",
  p.delay_minutes as "delayMinutes", p.status, p.notice_types as "noticeTypes", p.description,
  f.name as "farmName", h.name as "houseName"`;
const PHONE_FROM = `alarm_phones p join farms f on f.id = p.farm_id left join houses h on h.id = p.house_id`;
/** Alarm phone entries, per farm or house; changes need canOperate. */
export function phoneRoutes(ctx: AppContext): RoutePlugin {
  const { database, scopeFor, log } = settingsContext(ctx);

  /** A farm-wide entry covers every house of the farm: a house manager may not make one. */
  const checkPlace = async (
    request: FastifyRequest,
    scope: Scope,
    farmId: number,
    houseId: number | null,
  ) => {
    if (!canSeeFarm(scope, farmId)) throw new ApiError(404, 'http.notFound');
    // An administrator's scope holds every id: the farm must exist before anything is written.
    const [farm] = await database.query<{ id: number }>(
      `select id from farms where id = $1 and level = 'farm'`,
      [farmId],
    );
    if (!farm) throw new ApiError(404, 'http.notFound');
    if (houseId === null) {
      if (!mayCoverWholeFarm(sessionOf(request).user)) throw new ApiError(403, 'auth.forbidden');
      return null;
    }
    const [house] = await database.query<{ id: number; name: string }>(
      'select id, name from houses where id = $1 and farm_id = $2',
      [houseId, farmId],
    );
    if (!house || !canSeeHouse(scope, houseId)) throw new ApiError(404, 'http.notFound');
    return house;
  };

  const phonesOf = async (
    scope: Scope,
    filter: { id?: number; farmId?: number; houseId?: number },
  ) => {
    const params: unknown[] = [];
    const where: string[] = [];
    // Farm-wide entries of the user's farms are visible; house entries only for houses in scope.
    if (!scope.all)
      where.push(
        `p.farm_id = any($${params.push([...scope.farmIds])}::int[]) and (p.house_id is null or p.house_id = any($${params.push([...scope.houseIds])}::int[]))`,
      );
    if (filter.id) where.push(`p.id = $${params.push(filter.id)}`);
    if (filter.farmId) where.push(`p.farm_id = $${params.push(filter.farmId)}`);
    if (filter.houseId)
      where.push(`(p.house_id is null or p.house_id = $${params.push(filter.houseId)})`);
    const rows = await database.query<AlarmPhone>(
      `select ${PHONE_SELECT} from ${PHONE_FROM} where ${where.length > 0 ? where.join(' and ') : 'true'}
       order by f.name, h.name nulls first, p.id`,
      params,
    );
    return rows.map((r) => ({ ...r, noticeTypes: parseJson(r.noticeTypes) }));
  };

  return async (app) => {
    app.get(
      '/alarmPhone/list',
      {
        schema: {
          summary: "The alarm phone entries in your scope (a house's include its farm's)",
          querystring: phoneQuery,
          response: answers(pagedSchema(alarmPhoneSchema)),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const rows = await phonesOf(await scopeFor(request), request.query);
        return ok(request, reply, { rows, total: rows.length });
      },
    );

    const savePhone = async (
      request: FastifyRequest,
      v: z.output<typeof alarmPhoneInputSchema>,
      id: number | null,
    ) => {
      const scope = await scopeFor(request);
      if (id !== null) {
        // The entry's current place must be the caller's to change too, not only its new
        // one: else a house manager moves a farm-wide entry onto a house of its own, and
        // then rewrites or deletes it.
        const [current] = await phonesOf(scope, { id });
        if (!current) throw new ApiError(404, 'http.notFound');
        await checkPlace(request, scope, current.farmId, current.houseId);
      }
      const house = await checkPlace(request, scope, v.farmId, v.houseId);
      const values = [
        v.farmId,
        v.houseId,
        v.phone,
        v.period1Start,
        v.period1End,
        v.period2Start,
        v.period2End,
        v.dateType,
        v.repeatMinutes,
        v.closable,
        v.alarmType,
        v.delayMinutes,
        v.status,
        JSON.stringify(v.noticeTypes),
        v.description,
      ];
      const cols = `farm_id, house_id, phone, period1_start, period1_end, period2_start, period2_end, date_type,
        repeat_minutes, closable, alarm_type, delay_minutes, status, notice_types, description`;
      const rows =
        id === null
          ? await database.query<{ id: number }>(
              `insert into alarm_phones (${cols}) values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14::jsonb,$15) returning id`,
              values,
            )
          : await database.query<{ id: number }>(
              `update alarm_phones set (${cols}) = ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14::jsonb,$15)
               where id = $16 and ${scope.all ? 'true' : `farm_id = any($17::int[])`} returning id`,
              scope.all ? [...values, id] : [...values, id, [...scope.farmIds]],
            );
      const saved = rows[0];
      if (!saved) throw new ApiError(404, 'http.notFound');
      await log(
        request,
        id === null ? 'alarmPhone.create' : 'alarmPhone.update',
        { key: 'alarmPhone', params: { phone: v.phone, id: saved.id } },
        house,
      );
      const [row] = await phonesOf(scope, { id: saved.id });
      return row;
    };

    app.post(
      '/alarmPhone/create',
      {
        schema: {
          summary: 'Adds an alarm phone entry for a farm or one of its houses',
          body: alarmPhoneInputSchema,
          response: answers(alarmPhoneSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await savePhone(request, request.body, null), 'alarms.saved'),
    );
    app.put(
      '/alarmPhone/update',
      {
        schema: {
          summary: 'Changes an alarm phone entry',
          body: alarmPhoneUpdateSchema,
          response: answers(alarmPhoneSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await savePhone(request, request.body, request.body.id), 'alarms.saved'),
    );

    app.delete(
      '/alarmPhone/delete',
      {
        schema: {
          summary: 'Deletes an alarm phone entry; answers how many are left on its farm',
          body: idBody,
          response: answers(deleteResultSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
        preValidation: bodyOrQuery,
      },
      async (request, reply) => {
        const { id } = request.body;
        const scope = await scopeFor(request);
        const [entry] = await phonesOf(scope, { id });
        if (!entry) throw new ApiError(404, 'http.notFound');
        await checkPlace(request, scope, entry.farmId, entry.houseId);
        await database.query('delete from alarm_phones where id = $1', [id]);
        await log(
          request,
          'alarmPhone.delete',
          { key: 'alarmPhone', params: { phone: entry.phone, id } },
          null,
        );
        const remaining = (await phonesOf(scope, { farmId: entry.farmId })).length;
        return ok(request, reply, { remaining }, 'alarms.deleted');
      },
    );
  };
}
