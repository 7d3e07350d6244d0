import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { idSchema, jsonIdSchema } from '../../../src/contract/ids';
import {
  alarmPlaceSchema,
  houseAlarmLimitsSchema,
  type AlarmPlace,
} from '../../../src/contract/alarms';
import { canSeeHouse } from '../../auth/scope';
import type { AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { inScope } from '../access';
import { alarmLimits } from '../../db/alarmSchema';
import { parseJson } from '../../db/jsonColumn';
import { farms, gateways, houses } from '../../db/schema';
import { settingsContext } from './settingsShared';
import { CONTROLLER_ALARM_PARAM, limitsInForceSchema } from '../../../src/contract/alarmLimits';
import { HouseRulesCache } from '../houseRules';
import { thresholdsOf } from '../thresholds';

const limitsQuery = z.object({ houseId: idSchema });
const limitsBody = z.object({
  houseId: jsonIdSchema,
  limits: houseAlarmLimitsSchema,
});

/**
 * Alarm settings: the places the forms offer, house limits, and the alarm phone and
 * alarm input routes (one module each); changes need canOperate.
 */
export function settingsRoutes(ctx: AppContext): RoutePlugin {
  const { database, scopeFor, log } = settingsContext(ctx);
  return async (app) => {
    /** The choices of the settings forms and filters. */
    app.get(
      '/alarm/places',
      {
        schema: {
          summary: 'The houses in your scope with their farm and gateway',
          response: answers(z.array(alarmPlaceSchema)),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const rows: AlarmPlace[] = await database.db
          .select({
            houseId: houses.id,
            houseName: houses.name,
            farmId: farms.id,
            farmName: farms.name,
            gatewayId: gateways.id,
            networkId: gateways.networkId,
          })
          .from(houses)
          .innerJoin(farms, eq(farms.id, houses.farmId))
          .leftJoin(gateways, eq(gateways.houseId, houses.id))
          .where(inScope(await scopeFor(request), houses.id))
          .orderBy(asc(farms.name), asc(houses.sort), asc(houses.id));
        return ok(request, reply, rows);
      },
    );

    app.get(
      '/alarm/limits',
      {
        schema: {
          summary: "A house's own alarm limits (a limit not set falls back to the breed's target)",
          querystring: limitsQuery,
          response: answers(houseAlarmLimitsSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { houseId } = request.query;
        if (!canSeeHouse(await scopeFor(request), houseId))
          throw new ApiError(404, 'http.notFound');
        const [row] = await database.db
          .select({ limits: alarmLimits.limits })
          .from(alarmLimits)
          .where(eq(alarmLimits.houseId, houseId));
        return ok(request, reply, row ? parseJson(row.limits) : {});
      },
    );

    app.put(
      '/alarm/limits',
      {
        schema: {
          summary: "Sets a house's own alarm limits",
          body: limitsBody,
          response: answers(houseAlarmLimitsSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const v = request.body;
        // The house must exist before anything is written: an administrator's scope holds
        // every id, and the insert of a missing one failed on its foreign key with a 500.
        const [house] = await database.db
          .select({ id: houses.id, name: houses.name })
          .from(houses)
          .where(eq(houses.id, v.houseId));
        if (!house || !canSeeHouse(await scopeFor(request), v.houseId))
          throw new ApiError(404, 'http.notFound');
        // The limits as they were, so the log can say what changed ("3 ℃ → 2 ℃").
        const [was] = await database.db
          .select({ limits: alarmLimits.limits })
          .from(alarmLimits)
          .where(eq(alarmLimits.houseId, v.houseId));
        await database.db
          .insert(alarmLimits)
          .values({ houseId: v.houseId, limits: v.limits })
          .onConflictDoUpdate({
            target: alarmLimits.houseId,
            set: { limits: sql`excluded.limits`, updatedAt: sql`now()` },
          });
        await log(
          request,
          'alarm.limits',
          {
            key: 'alarmLimits',
            params: { value: JSON.stringify(v.limits), before: JSON.stringify(was?.limits ?? {}) },
          },
          house,
        );
        void ctx.events.emit('alarmRulesChanged', v.houseId);
        return ok(request, reply, v.limits, 'alarms.saved');
      },
    );

    app.get(
      '/alarm/limitsInForce',
      {
        schema: {
          summary:
            "The limits Roost raises a house's climate alarms at now, and where each comes from (breed target, house, controller or default)",
          querystring: limitsQuery,
          response: answers(limitsInForceSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { houseId } = request.query;
        if (!canSeeHouse(await scopeFor(request), houseId))
          throw new ApiError(404, 'http.notFound');
        // A fresh read, not the engine's minute-long cache: the page shows what holds now.
        const rules = (
          await new HouseRulesCache(database, ctx.config.timeZone, () => new Date()).get([houseId])
        ).get(houseId);
        if (!rules) throw new ApiError(404, 'http.notFound');
        const controller = rules.controller ?? {};
        return ok(request, reply, {
          houseId,
          followController: rules.limits.followController ?? false,
          controllerReported: Object.values(CONTROLLER_ALARM_PARAM).some(
            (key) => controller[key] !== undefined,
          ),
          limits: thresholdsOf(rules).map(({ key: _, above: __, ...limit }) => limit),
        });
      },
    );
  };
}
