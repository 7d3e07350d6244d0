import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idSchema } from '../../../src/contract/ids';
import {
  alarmInputInputSchema,
  alarmInputUpdateSchema,
  type AlarmInputSetting,
} from '../../../src/contract/alarms';
import { alarmInputSettingSchema, deleteResultSchema } from '../../../src/contract/adminAnswers';
import { pagedSchema } from '../../../src/contract/paged';
import { canSeeHouse, type Scope } from '../../auth/scope';
import type { AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { ANY_ROLE, answers, bodyOrQuery, type RoutePlugin } from '../../http/routeSchema';
import { scopeWhere } from '../access';
import { idBody, settingsContext } from './settingsShared';

const inputQuery = z.object({ gatewayId: idSchema.optional() });

const INPUT_SELECT = `i.id, i.gateway_id as "gatewayId", i.di_code as "diCode", i.content, i.horn,
  i.shield_test as "shieldTest", i.relay_type as "relayType", i.important, g.network_id as "networkId",
  h.name as "houseName"`;
const INPUT_FROM = `alarm_inputs i join gateways g on g.id = i.gateway_id left join houses h on h.id = g.house_id`;

/** Alarm inputs (what each DI input of a gateway means); changes need canOperate and reach the engine. */
export function inputRoutes(ctx: AppContext): RoutePlugin {
  const { database, scopeFor, log } = settingsContext(ctx);

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
    app.get(
      '/alarmInput/list',
      {
        schema: {
          summary: 'What each alarm input of the gateways in your scope means',
          querystring: inputQuery,
          response: answers(pagedSchema(alarmInputSettingSchema)),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        const params: unknown[] = [];
        const where = [scopeWhere(scope, params, 'g.house_id')];
        if (q.gatewayId) where.push(`i.gateway_id = $${params.push(q.gatewayId)}`);
        const rows = await database.query<AlarmInputSetting>(
          `select ${INPUT_SELECT} from ${INPUT_FROM} where ${where.join(' and ')} order by h.name, i.di_code`,
          params,
        );
        return ok(request, reply, { rows, total: rows.length });
      },
    );

    const saveInput = async (
      request: FastifyRequest,
      v: z.output<typeof alarmInputInputSchema>,
      id: number | null,
    ) => {
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
        { key: 'alarmInput', params: { code: String(v.diCode), id: saved.id } },
        house,
      );
      void ctx.events.emit('alarmRulesChanged', null);
      const [row] = await database.query<AlarmInputSetting>(
        `select ${INPUT_SELECT} from ${INPUT_FROM} where i.id = $1`,
        [saved.id],
      );
      return row;
    };

    app.post(
      '/alarmInput/create',
      {
        schema: {
          summary: 'Says what one alarm input of a gateway means and whether it sounds the horn',
          body: alarmInputInputSchema,
          response: answers(alarmInputSettingSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await saveInput(request, request.body, null), 'alarms.saved'),
    );
    app.put(
      '/alarmInput/update',
      {
        schema: {
          summary: 'Changes what an alarm input means',
          body: alarmInputUpdateSchema,
          response: answers(alarmInputSettingSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await saveInput(request, request.body, request.body.id), 'alarms.saved'),
    );

    app.delete(
      '/alarmInput/delete',
      {
        schema: {
          summary: "Deletes an alarm input's meaning; answers how many are left on its gateway",
          body: idBody,
          response: answers(deleteResultSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
        preValidation: bodyOrQuery,
      },
      async (request, reply) => {
        const { id } = request.body;
        const scope = await scopeFor(request);
        const [old] = await database.query<{ gateway_id: number; di_code: string }>(
          'select gateway_id, di_code from alarm_inputs where id = $1',
          [id],
        );
        if (!old) throw new ApiError(404, 'http.notFound');
        const house = await gatewayHouse(scope, old.gateway_id);
        await database.query('delete from alarm_inputs where id = $1', [id]);
        await log(
          request,
          'alarmInput.delete',
          { key: 'alarmInput', params: { code: String(old.di_code), id } },
          house,
        );
        const [left] = await database.query<{ n: number }>(
          'select count(*)::int as n from alarm_inputs where gateway_id = $1',
          [old.gateway_id],
        );
        return ok(request, reply, { remaining: Number(left?.n ?? 0) }, 'alarms.deleted');
      },
    );
  };
}
