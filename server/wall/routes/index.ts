import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { alarmTodaySchema } from '../../../src/contract/alarms';
import { overviewListSchema } from '../../../src/contract/overview';
import {
  wallFarmHousesSchema,
  wallFarmParamsSchema,
  wallMapSchema,
  wallProvinceParamsSchema,
  wallProvinceSchema,
  type WallFarmHouses,
  type WallMap,
  type WallProvince,
} from '../../../src/contract/wall';
import { canSeeFarm, scopeOf, type Scope } from '../../auth/scope';
import { findSession } from '../../auth/sessions';
import { findKiosk, isKioskToken } from '../kiosk';
import { kioskRoutes } from './kiosk';
import { openAlarmsOfScope } from '../wallAlarms';
import { wallOpenAlarmsSchema } from '../../../src/contract/wallAlarms';
import { wallProductionSchema } from '../../../src/contract/wallProduction';
import { wallProductionOf } from '../wallProduction';
import { wallFarmCurvesSchema, wallRankingSchema } from '../../../src/contract/wallRanking';
import { farmCurves } from '../wallCurves';
import { wallRankingOf } from '../wallRanking';
import { HouseRulesCache } from '../../alarms/houseRules';
import { wallNightQuerySchema, wallNightSchema } from '../../../src/contract/wallNight';
import { readWallNight } from '../wallNight.sql';
import { alarmsTodayOf, openAlarmCountOf } from '../../alarms/summaries';
import { overviewJsonOf } from '../../houses/overview.sql';
import { wallFarms, wallHouses } from '../wallQueries';
import { tokenOf, type AppContext } from '../../http/context';
import { ok, okJson } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { answers, type RoutePlugin } from '../../http/routeSchema';

/** Who looks at the wall: a signed-in user, or a kiosk link; either way a scope and a map type. */
interface Viewer {
  scope: Scope;
  mapType: '1' | '2';
}

/** The wall: farms on the map and their drill-down, for a signed-in user or a kiosk link; and the kiosk links. */
export function wallRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  const viewers = new WeakMap<FastifyRequest, Viewer>();
  // The houses' limits for the ranking, kept as the alarm engine keeps them (a minute or so).
  const rankingRules = new HouseRulesCache(database, ctx.config.timeZone, () => new Date());

  const viewerOf = async (request: FastifyRequest): Promise<Viewer> => {
    const token = tokenOf(request);
    if (!token) throw new ApiError(401, 'auth.required');
    if (isKioskToken(token)) {
      const kiosk = await findKiosk(database, token);
      if (!kiosk) throw new ApiError(401, 'wall.kioskEnded');
      return { scope: kiosk.scope, mapType: kiosk.mapType };
    }
    const session = await findSession(database.db, token);
    if (!session) throw new ApiError(401, 'auth.expired');
    request.session = session;
    return { scope: await scopeOf(database.db, session.user), mapType: session.user.mapType };
  };
  /** The viewer the route's own `onRequest` found (it runs before the handler, always). */
  const viewer = (request: FastifyRequest): Viewer => {
    const found = viewers.get(request);
    if (!found) throw new Error('wall route without its viewer hook');
    return found;
  };

  /**
   * Every route reading the wall takes `public` off the app's session hook and checks here
   * instead, where a kiosk token is accepted too. Only these GET routes do: a kiosk token opens
   * nothing else (the session hook refuses it everywhere, no session has its hash). The check
   * runs on request, before the input is read, as the session hook does for other routes.
   */
  const VIEW = {
    config: { public: true },
    onRequest: async (request: FastifyRequest) => {
      viewers.set(request, await viewerOf(request));
    },
  } as const;

  return async (app) => {
    await app.register(kioskRoutes(ctx));

    app.get(
      '/wall/map',
      {
        ...VIEW,
        schema: {
          summary: 'Every farm in scope with its position, house count and worst state',
          response: answers(wallMapSchema),
        },
      },
      async (request, reply) => {
        const { scope, mapType } = viewer(request);
        const data: WallMap = {
          mapType,
          timeZone: ctx.config.timeZone,
          farms: await wallFarms(database, scope),
        };
        return ok(request, reply, data);
      },
    );

    app.get(
      '/wall/province/:adcode',
      {
        ...VIEW,
        schema: {
          summary: 'The farms in scope of one province (the map drilled down)',
          params: wallProvinceParamsSchema,
          response: answers(wallProvinceSchema),
        },
      },
      async (request, reply) => {
        const { adcode } = request.params;
        const { scope } = viewer(request);
        const data: WallProvince = { adcode, farms: await wallFarms(database, scope, { adcode }) };
        return ok(request, reply, data);
      },
    );

    app.get(
      '/wall/farm/:farmId',
      {
        ...VIEW,
        schema: {
          summary: 'One farm and its houses with their states (the map drilled down)',
          params: wallFarmParamsSchema,
          response: answers(wallFarmHousesSchema),
        },
      },
      async (request, reply) => {
        const { farmId } = request.params;
        const { scope } = viewer(request);
        // Outside the scope looks like not existing.
        const [farm] = canSeeFarm(scope, farmId)
          ? await wallFarms(database, scope, { farmId })
          : [];
        if (!farm) throw new ApiError(404, 'wall.farmNotFound');
        const data: WallFarmHouses = { farm, houses: await wallHouses(database, scope, farmId) };
        return ok(request, reply, data);
      },
    );

    app.get(
      '/wall/houses',
      {
        ...VIEW,
        schema: {
          summary: 'The houses in scope and their latest state, as the overview lists them',
          response: answers(overviewListSchema),
        },
      },
      async (request, reply) => {
        const { scope } = viewer(request);
        return okJson(request, reply, await overviewJsonOf(database, scope, ctx.config.timeZone));
      },
    );

    app.get(
      '/wall/today',
      {
        ...VIEW,
        schema: {
          summary: "Today's alarms in scope by cause, as the alarm list counts them",
          response: answers(alarmTodaySchema),
        },
      },
      async (request, reply) => {
        const { scope } = viewer(request);
        return ok(request, reply, await alarmsTodayOf(database, scope, ctx.config.timeZone));
      },
    );

    app.get(
      '/wall/alarms',
      {
        ...VIEW,
        schema: {
          summary:
            'The open alarms in scope, worst first, and the one cleared last when none is open',
          response: answers(wallOpenAlarmsSchema),
        },
      },
      async (request, reply) => {
        const { scope } = viewer(request);
        return ok(request, reply, await openAlarmsOfScope(database, scope));
      },
    );

    app.get(
      '/wall/production',
      {
        ...VIEW,
        schema: {
          summary:
            "The day's production and power in scope: mortality against the breed standard, feed, water and electricity against yesterday, today's cost",
          response: answers(wallProductionSchema),
        },
      },
      async (request, reply) => {
        const { scope } = viewer(request);
        return ok(request, reply, await wallProductionOf(database, scope, ctx.config.timeZone));
      },
    );

    app.get(
      '/wall/farm/:farmId/curves',
      {
        ...VIEW,
        schema: {
          summary:
            "A farm's houses' last 6 hours of temperature, a mean per 10 minutes, with each house's target now",
          params: wallFarmParamsSchema,
          response: answers(wallFarmCurvesSchema),
        },
      },
      async (request, reply) => {
        const { farmId } = request.params;
        const { scope } = viewer(request);
        // Outside the scope looks like not existing, as the farm itself does.
        if (!canSeeFarm(scope, farmId)) throw new ApiError(404, 'wall.farmNotFound');
        return ok(
          request,
          reply,
          await farmCurves(database, rankingRules, scope, farmId, ctx.config.timeZone),
        );
      },
    );

    app.get(
      '/wall/ranking',
      {
        ...VIEW,
        schema: {
          summary:
            'The farms in scope whose houses are furthest from target now (temperature, humidity, CO2, NH3), by the alarm limits',
          response: answers(wallRankingSchema),
        },
      },
      async (request, reply) => {
        const { scope } = viewer(request);
        return ok(request, reply, await wallRankingOf(database, rankingRules, scope));
      },
    );

    app.get(
      '/wall/night',
      {
        ...VIEW,
        schema: {
          summary:
            "Alarms raised and cleared per hour in scope, the last 24 hours beside the day before's",
          querystring: wallNightQuerySchema,
          response: answers(wallNightSchema),
        },
      },
      async (request, reply) => {
        const { scope } = viewer(request);
        const timeZone = request.query.timeZone ?? ctx.config.timeZone;
        return ok(request, reply, await readWallNight(database, scope, timeZone));
      },
    );

    app.get(
      '/wall/alarmAmt',
      {
        ...VIEW,
        schema: {
          summary: 'How many alarms in scope are open',
          response: answers(z.number().int().nonnegative()),
        },
      },
      async (request, reply) => {
        const { scope } = viewer(request);
        return ok(request, reply, await openAlarmCountOf(database, scope));
      },
    );
  };
}
