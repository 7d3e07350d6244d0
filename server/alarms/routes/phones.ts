import type { FastifyRequest } from 'fastify';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
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
import { alarmPhones } from '../../db/alarmSchema';
import { parseJson } from '../../db/jsonColumn';
import { farms, houses } from '../../db/schema';
import { mayCoverWholeFarm } from '../access';
import { idBody, settingsContext } from './settingsShared';

const phoneQuery = z.object({
  farmId: idSchema.optional(),
  houseId: idSchema.optional(),
});

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
    const [farm] = await database.db
      .select({ id: farms.id })
      .from(farms)
      .where(and(eq(farms.id, farmId), eq(farms.level, 'farm')));
    if (!farm) throw new ApiError(404, 'http.notFound');
    if (houseId === null) {
      if (!mayCoverWholeFarm(sessionOf(request).user)) throw new ApiError(403, 'auth.forbidden');
      return null;
    }
    const [house] = await database.db
      .select({ id: houses.id, name: houses.name })
      .from(houses)
      .where(and(eq(houses.id, houseId), eq(houses.farmId, farmId)));
    if (!house || !canSeeHouse(scope, houseId)) throw new ApiError(404, 'http.notFound');
    return house;
  };

  const phonesOf = async (
    scope: Scope,
    filter: { id?: number; farmId?: number; houseId?: number },
  ) => {
    const rows = await database.db
      .select({
        id: alarmPhones.id,
        farmId: alarmPhones.farmId,
        houseId: alarmPhones.houseId,
        phone: alarmPhones.phone,
        period1Start: alarmPhones.period1Start,
        period1End: alarmPhones.period1End,
        period2Start: alarmPhones.period2Start,
        period2End: alarmPhones.period2End,
        dateType: alarmPhones.dateType,
        repeatMinutes: alarmPhones.repeatMinutes,
        closable: alarmPhones.closable,
        alarmType: alarmPhones.alarmType,
        delayMinutes: alarmPhones.delayMinutes,
        status: alarmPhones.status,
        noticeTypes: alarmPhones.noticeTypes,
        description: alarmPhones.description,
        farmName: farms.name,
        houseName: houses.name,
      })
      .from(alarmPhones)
      .innerJoin(farms, eq(farms.id, alarmPhones.farmId))
      .leftJoin(houses, eq(houses.id, alarmPhones.houseId))
      .where(
        and(
          // Farm-wide entries of the user's farms are visible; house entries only for houses
          // in scope.
          scope.all
            ? undefined
            : and(
                inArray(alarmPhones.farmId, [...scope.farmIds]),
                or(isNull(alarmPhones.houseId), inArray(alarmPhones.houseId, [...scope.houseIds])),
              ),
          filter.id ? eq(alarmPhones.id, filter.id) : undefined,
          filter.farmId ? eq(alarmPhones.farmId, filter.farmId) : undefined,
          filter.houseId
            ? or(isNull(alarmPhones.houseId), eq(alarmPhones.houseId, filter.houseId))
            : undefined,
        ),
      )
      .orderBy(asc(farms.name), sql`${houses.name} asc nulls first`, asc(alarmPhones.id));
    return rows.map((r) => ({ ...r, noticeTypes: parseJson(r.noticeTypes) }) as AlarmPhone);
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
      const values = {
        farmId: v.farmId,
        houseId: v.houseId,
        phone: v.phone,
        period1Start: v.period1Start,
        period1End: v.period1End,
        period2Start: v.period2Start,
        period2End: v.period2End,
        dateType: v.dateType,
        repeatMinutes: v.repeatMinutes,
        closable: v.closable,
        alarmType: v.alarmType,
        delayMinutes: v.delayMinutes,
        status: v.status,
        noticeTypes: v.noticeTypes,
        description: v.description,
      };
      const rows =
        id === null
          ? await database.db.insert(alarmPhones).values(values).returning({ id: alarmPhones.id })
          : await database.db
              .update(alarmPhones)
              .set(values)
              .where(
                and(
                  eq(alarmPhones.id, id),
                  scope.all ? undefined : inArray(alarmPhones.farmId, [...scope.farmIds]),
                ),
              )
              .returning({ id: alarmPhones.id });
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
        await database.db.delete(alarmPhones).where(eq(alarmPhones.id, id));
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
