import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  alarmInputInputSchema,
  alarmInputUpdateSchema,
  alarmPhoneInputSchema,
  alarmPhoneUpdateSchema,
  houseAlarmLimitsSchema,
  type AlarmInputSetting,
  type AlarmPhone,
  type AlarmPlace,
} from '../../src/contract/alarms';
import { canSeeFarm, canSeeHouse, scopeOf, type Scope } from '../auth/scope';
import { sessionOf, sourceOf, type AppContext } from '../http/context';
import { ok, parseInput } from '../http/envelope';
import { ApiError } from '../http/errors';
import { writeOperationLog } from '../oplog';
import { requireOperate, scopeWhere } from './access';
import type { AlarmBus } from './bus';

const idBody = z.object({ id: z.coerce.number().int().positive() });
const phoneQuery = z.object({
  farmId: z.coerce.number().int().positive().optional(),
  houseId: z.coerce.number().int().positive().optional(),
});
const inputQuery = z.object({ gatewayId: z.coerce.number().int().positive().optional() });
const limitsQuery = z.object({ houseId: z.coerce.number().int().positive() });
const limitsBody = z.object({
  houseId: z.number().int().positive(),
  limits: houseAlarmLimitsSchema,
});

const PHONE_SELECT = `p.id, p.farm_id as "farmId", p.house_id as "houseId", p.phone, p.period1_start as "period1Start",
  p.period1_end as "period1End", p.period2_start as "period2Start", p.period2_end as "period2End",
  p.date_type as "dateType", p.repeat_minutes as "repeatMinutes", p.closable, p.alarm_type as "alarmType",
  p.delay_minutes as "delayMinutes", p.status, p.notice_types as "noticeTypes", p.description,
  f.name as "farmName", h.name as "houseName"`;
const PHONE_FROM = `alarm_phones p join farms f on f.id = p.farm_id left join houses h on h.id = p.house_id`;
const INPUT_SELECT = `i.id, i.gateway_id as "gatewayId", i.di_code as "diCode", i.content, i.horn,
  i.shield_test as "shieldTest", i.relay_type as "relayType", i.important, g.network_id as "networkId",
  h.name as "houseName"`;
const INPUT_FROM = `alarm_inputs i join gateways g on g.id = i.gateway_id left join houses h on h.id = g.house_id`;

const parseJson = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** Alarm phone, alarm input and house limit settings (spec §3); changes need canOperate. */
export function settingsRoutes(ctx: AppContext, bus: AlarmBus): FastifyPluginAsync {
  const { database } = ctx;
  const scopeFor = (request: FastifyRequest) => scopeOf(database.db, sessionOf(request).user);
  const log = (
    request: FastifyRequest,
    fn: string,
    operation: string,
    house?: { id: number; name: string } | null,
  ) => {
    const { user } = sessionOf(request);
    return writeOperationLog(database.db, {
      operator: { id: user.id, name: user.realName || user.username },
      function: fn,
      operation,
      house: house ?? null,
      source: sourceOf(request),
    });
  };

  /** A farm-wide entry covers every house of the farm: a house manager may not make one. */
  const checkPlace = async (
    request: FastifyRequest,
    scope: Scope,
    farmId: number,
    houseId: number | null,
  ) => {
    if (!canSeeFarm(scope, farmId)) throw new ApiError(404, 'http.notFound');
    if (houseId === null) {
      if (sessionOf(request).user.roleKey === 'shack_manager')
        throw new ApiError(403, 'auth.forbidden');
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

  const gatewayHouse = async (scope: Scope, gatewayId: number) => {
    const [row] = await database.query<{
      house_id: number | null;
      name: string | null;
      network_id: string;
    }>(
      'select g.house_id, h.name, g.network_id from gateways g left join houses h on h.id = g.house_id where g.id = $1',
      [gatewayId],
    );
    if (!row || row.house_id === null || !canSeeHouse(scope, row.house_id))
      throw new ApiError(404, 'http.notFound');
    return { id: row.house_id, name: row.name ?? '', networkId: row.network_id };
  };

  return async (app) => {
    /** Farms, houses and gateways in scope: the choices of the settings forms and filters. */
    app.get('/alarm/places', async (request, reply) => {
      const params: unknown[] = [];
      const rows = await database.query<AlarmPlace>(
        `select h.id as "houseId", h.name as "houseName", f.id as "farmId", f.name as "farmName",
           g.id as "gatewayId", g.network_id as "networkId"
         from houses h join farms f on f.id = h.farm_id left join gateways g on g.house_id = h.id
         where ${scopeWhere(await scopeFor(request), params, 'h.id')} order by f.name, h.sort, h.id`,
        params,
      );
      return ok(request, reply, rows);
    });

    app.get('/alarmPhone/list', async (request, reply) => {
      const q = parseInput(phoneQuery, request.query);
      const rows = await phonesOf(await scopeFor(request), q);
      return ok(request, reply, { rows, total: rows.length });
    });

    const savePhone = async (request: FastifyRequest, id: number | null) => {
      requireOperate(request);
      const v =
        id === null
          ? parseInput(alarmPhoneInputSchema, request.body)
          : parseInput(alarmPhoneUpdateSchema, request.body);
      const scope = await scopeFor(request);
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
      if (id !== null && (await phonesOf(scope, { id })).length === 0)
        throw new ApiError(404, 'http.notFound');
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
        `${v.phone} #${saved.id}`,
        house,
      );
      const [row] = await phonesOf(scope, { id: saved.id });
      return row;
    };

    app.post('/alarmPhone/create', async (request, reply) =>
      ok(request, reply, await savePhone(request, null), 'alarms.saved'),
    );
    app.put('/alarmPhone/update', async (request, reply) => {
      const { id } = parseInput(idBody, request.body);
      return ok(request, reply, await savePhone(request, id), 'alarms.saved');
    });

    app.delete('/alarmPhone/delete', async (request, reply) => {
      requireOperate(request);
      const { id } = parseInput(idBody, request.body ?? request.query);
      const scope = await scopeFor(request);
      const [entry] = await phonesOf(scope, { id });
      if (!entry) throw new ApiError(404, 'http.notFound');
      await checkPlace(request, scope, entry.farmId, entry.houseId);
      await database.query('delete from alarm_phones where id = $1', [id]);
      await log(request, 'alarmPhone.delete', `${entry.phone} #${id}`, null);
      const remaining = (await phonesOf(scope, { farmId: entry.farmId })).length;
      return ok(request, reply, { remaining }, 'alarms.deleted');
    });

    app.get('/alarmInput/list', async (request, reply) => {
      const q = parseInput(inputQuery, request.query);
      const scope = await scopeFor(request);
      const params: unknown[] = [];
      const where = [scopeWhere(scope, params, 'g.house_id')];
      if (q.gatewayId) where.push(`i.gateway_id = $${params.push(q.gatewayId)}`);
      const rows = await database.query<AlarmInputSetting>(
        `select ${INPUT_SELECT} from ${INPUT_FROM} where ${where.join(' and ')} order by h.name, i.di_code`,
        params,
      );
      return ok(request, reply, { rows, total: rows.length });
    });

    const saveInput = async (request: FastifyRequest, id: number | null) => {
      requireOperate(request);
      const v =
        id === null
          ? parseInput(alarmInputInputSchema, request.body)
          : parseInput(alarmInputUpdateSchema, request.body);
      const scope = await scopeFor(request);
      const house = await gatewayHouse(scope, v.gatewayId);
      if (id !== null) {
        const [old] = await database.query<{ gateway_id: number }>(
          'select gateway_id from alarm_inputs where id = $1',
          [id],
        );
        if (!old) throw new ApiError(404, 'http.notFound');
        await gatewayHouse(scope, old.gateway_id);
      }
      const values = [
        v.gatewayId,
        v.diCode,
        v.content,
        v.horn,
        v.shieldTest,
        v.relayType,
        v.important,
      ];
      const cols = 'gateway_id, di_code, content, horn, shield_test, relay_type, important';
      let saved: { id: number } | undefined;
      try {
        [saved] =
          id === null
            ? await database.query<{ id: number }>(
                `insert into alarm_inputs (${cols}) values ($1,$2,$3,$4,$5,$6,$7) returning id`,
                values,
              )
            : await database.query<{ id: number }>(
                `update alarm_inputs set (${cols}) = ($1,$2,$3,$4,$5,$6,$7) where id = $8 returning id`,
                [...values, id],
              );
      } catch (error) {
        if ((error as { code?: string }).code === '23505')
          throw new ApiError(409, 'alarms.duplicateInput');
        throw error;
      }
      if (!saved) throw new ApiError(404, 'http.notFound');
      await log(
        request,
        id === null ? 'alarmInput.create' : 'alarmInput.update',
        `DI ${v.diCode} #${saved.id}`,
        house,
      );
      bus.rulesChanged(null);
      const [row] = await database.query<AlarmInputSetting>(
        `select ${INPUT_SELECT} from ${INPUT_FROM} where i.id = $1`,
        [saved.id],
      );
      return row;
    };

    app.post('/alarmInput/create', async (request, reply) =>
      ok(request, reply, await saveInput(request, null), 'alarms.saved'),
    );
    app.put('/alarmInput/update', async (request, reply) => {
      const { id } = parseInput(idBody, request.body);
      return ok(request, reply, await saveInput(request, id), 'alarms.saved');
    });

    app.delete('/alarmInput/delete', async (request, reply) => {
      requireOperate(request);
      const { id } = parseInput(idBody, request.body ?? request.query);
      const scope = await scopeFor(request);
      const [old] = await database.query<{ gateway_id: number; di_code: string }>(
        'select gateway_id, di_code from alarm_inputs where id = $1',
        [id],
      );
      if (!old) throw new ApiError(404, 'http.notFound');
      const house = await gatewayHouse(scope, old.gateway_id);
      await database.query('delete from alarm_inputs where id = $1', [id]);
      await log(request, 'alarmInput.delete', `DI ${old.di_code} #${id}`, house);
      const [left] = await database.query<{ n: number }>(
        'select count(*)::int as n from alarm_inputs where gateway_id = $1',
        [old.gateway_id],
      );
      return ok(request, reply, { remaining: Number(left?.n ?? 0) }, 'alarms.deleted');
    });

    app.get('/alarm/limits', async (request, reply) => {
      const { houseId } = parseInput(limitsQuery, request.query);
      if (!canSeeHouse(await scopeFor(request), houseId)) throw new ApiError(404, 'http.notFound');
      const [row] = await database.query<{ limits: unknown }>(
        'select limits from alarm_limits where house_id = $1',
        [houseId],
      );
      return ok(request, reply, row ? parseJson(row.limits) : {});
    });

    app.put('/alarm/limits', async (request, reply) => {
      requireOperate(request);
      const v = parseInput(limitsBody, request.body);
      if (!canSeeHouse(await scopeFor(request), v.houseId))
        throw new ApiError(404, 'http.notFound');
      await database.query(
        `insert into alarm_limits (house_id, limits) values ($1, $2::jsonb)
         on conflict (house_id) do update set limits = excluded.limits, updated_at = now()`,
        [v.houseId, JSON.stringify(v.limits)],
      );
      const [house] = await database.query<{ id: number; name: string }>(
        'select id, name from houses where id = $1',
        [v.houseId],
      );
      await log(request, 'alarm.limits', JSON.stringify(v.limits), house ?? null);
      bus.rulesChanged(v.houseId);
      return ok(request, reply, v.limits, 'alarms.saved');
    });
  };
}
