import type { FastifyRequest } from 'fastify';
import { and, asc, count, eq, type SQL } from 'drizzle-orm';
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
import { alarmInputs } from '../../db/alarmSchema';
import { gateways, houses } from '../../db/schema';
import { inScope } from '../access';
import { idBody, settingsContext } from './settingsShared';

const inputQuery = z.object({ gatewayId: idSchema.optional() });

/** Postgres says 23505 for a unique violation; Drizzle hands the driver's error as `cause`. */
const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** Alarm inputs (what each DI input of a gateway means); changes need canOperate and reach the engine. */
export function inputRoutes(ctx: AppContext): RoutePlugin {
  const { database, scopeFor, log } = settingsContext(ctx);

  /** Alarm inputs with their gateway's network id and house name. */
  const inputsWhere = async (where: SQL | undefined): Promise<AlarmInputSetting[]> => {
    const rows = await database.db
      .select({
        id: alarmInputs.id,
        gatewayId: alarmInputs.gatewayId,
        diCode: alarmInputs.diCode,
        content: alarmInputs.content,
        horn: alarmInputs.horn,
        shieldTest: alarmInputs.shieldTest,
        relayType: alarmInputs.relayType,
        important: alarmInputs.important,
        networkId: gateways.networkId,
        houseName: houses.name,
      })
      .from(alarmInputs)
      .innerJoin(gateways, eq(gateways.id, alarmInputs.gatewayId))
      .leftJoin(houses, eq(houses.id, gateways.houseId))
      .where(where)
      .orderBy(asc(houses.name), asc(alarmInputs.diCode));
    // The relay type is checked on the way in (alarmInputInputSchema): the column is text.
    return rows as AlarmInputSetting[];
  };

  const gatewayHouse = async (scope: Scope, gatewayId: number) => {
    const [row] = await database.db
      .select({ houseId: gateways.houseId, name: houses.name, networkId: gateways.networkId })
      .from(gateways)
      .leftJoin(houses, eq(houses.id, gateways.houseId))
      .where(eq(gateways.id, gatewayId));
    if (!row || row.houseId === null || !canSeeHouse(scope, row.houseId))
      throw new ApiError(404, 'http.notFound');
    return { id: row.houseId, name: row.name ?? '', networkId: row.networkId };
  };

  /** The gateway of an alarm input, or 404. */
  const inputOf = async (id: number) => {
    const [row] = await database.db
      .select({ gatewayId: alarmInputs.gatewayId, diCode: alarmInputs.diCode })
      .from(alarmInputs)
      .where(eq(alarmInputs.id, id));
    if (!row) throw new ApiError(404, 'http.notFound');
    return row;
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
        const rows = await inputsWhere(
          and(
            inScope(scope, gateways.houseId),
            q.gatewayId ? eq(alarmInputs.gatewayId, q.gatewayId) : undefined,
          ),
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
      if (id !== null) await gatewayHouse(scope, (await inputOf(id)).gatewayId);
      const values = {
        gatewayId: v.gatewayId,
        diCode: v.diCode,
        content: v.content,
        horn: v.horn,
        shieldTest: v.shieldTest,
        relayType: v.relayType,
        important: v.important,
      };
      let saved: { id: number } | undefined;
      try {
        [saved] =
          id === null
            ? await database.db.insert(alarmInputs).values(values).returning({ id: alarmInputs.id })
            : await database.db
                .update(alarmInputs)
                .set(values)
                .where(eq(alarmInputs.id, id))
                .returning({ id: alarmInputs.id });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError(409, 'alarms.duplicateInput');
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
      const [row] = await inputsWhere(eq(alarmInputs.id, saved.id));
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
        const old = await inputOf(id);
        const house = await gatewayHouse(scope, old.gatewayId);
        await database.db.delete(alarmInputs).where(eq(alarmInputs.id, id));
        await log(
          request,
          'alarmInput.delete',
          { key: 'alarmInput', params: { code: String(old.diCode), id } },
          house,
        );
        const [left] = await database.db
          .select({ n: count() })
          .from(alarmInputs)
          .where(eq(alarmInputs.gatewayId, old.gatewayId));
        return ok(request, reply, { remaining: left?.n ?? 0 }, 'alarms.deleted');
      },
    );
  };
}
