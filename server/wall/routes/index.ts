import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  wallFarmParamsSchema,
  wallProvinceParamsSchema,
  type WallFarmHouses,
  type WallMap,
  type WallProvince,
} from '../../../src/contract/wall';
import { canSeeFarm, scopeOf, type Scope } from '../../auth/scope';
import { findSession } from '../../auth/sessions';
import { findKiosk, isKioskToken } from '../kiosk';
import { kioskRoutes } from './kiosk';
import { alarmsTodayOf, openAlarmCountOf } from '../../alarms/summaries';
import { overviewJsonOf } from '../../houses/overview';
import { wallFarms, wallHouses } from '../wallQueries';
import { tokenOf, type AppContext } from '../../http/context';
import { ok, okJson, parseInput } from '../../http/envelope';
import { ApiError } from '../../http/errors';

/** Who looks at the wall: a signed-in user, or a kiosk link; either way a scope and a map type. */
interface Viewer {
  scope: Scope;
  mapType: '1' | '2';
}

/**
 * Every route reading the wall takes `public` off the app's session hook and checks here
 * instead, where a kiosk token is accepted too. Only these GET routes do: a kiosk token opens
 * nothing else (the session hook refuses it everywhere, no session has its hash).
 */
const VIEW = { config: { public: true } } as const;

/** The wall: farms on the map and their drill-down, for a signed-in user or a kiosk link; and the kiosk links. */
export function wallRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database } = ctx;

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

  return async (app) => {
    await app.register(kioskRoutes(ctx));

    /** Every farm in scope with its position, house count and worst state; China or World. */
    app.get('/wall/map', VIEW, async (request, reply) => {
      const { scope, mapType } = await viewerOf(request);
      const data: WallMap = { mapType, farms: await wallFarms(database, scope) };
      return ok(request, reply, data);
    });

    /** The farms of one province (drill-down). */
    app.get('/wall/province/:adcode', VIEW, async (request, reply) => {
      const { adcode } = parseInput(wallProvinceParamsSchema, request.params);
      const { scope } = await viewerOf(request);
      const data: WallProvince = { adcode, farms: await wallFarms(database, scope, { adcode }) };
      return ok(request, reply, data);
    });

    /** One farm and its houses (drill-down); outside the scope looks like not existing. */
    app.get('/wall/farm/:farmId', VIEW, async (request, reply) => {
      const { farmId } = parseInput(wallFarmParamsSchema, request.params);
      const { scope } = await viewerOf(request);
      const [farm] = canSeeFarm(scope, farmId) ? await wallFarms(database, scope, { farmId }) : [];
      if (!farm) throw new ApiError(404, 'wall.farmNotFound');
      const data: WallFarmHouses = { farm, houses: await wallHouses(database, scope, farmId) };
      return ok(request, reply, data);
    });

    /** The houses and their latest state, as /overview/listOverview/ answers them. */
    app.get('/wall/houses', VIEW, async (request, reply) => {
      const { scope } = await viewerOf(request);
      return okJson(request, reply, await overviewJsonOf(database, scope, ctx.config.timeZone));
    });

    /** Today's alarms by cause, as /alarm/today answers them. */
    app.get('/wall/today', VIEW, async (request, reply) => {
      const { scope } = await viewerOf(request);
      return ok(request, reply, await alarmsTodayOf(database, scope, ctx.config.timeZone));
    });

    /** The open alarm count, as /overview/alarmAmt/ answers it. */
    app.get('/wall/alarmAmt', VIEW, async (request, reply) => {
      const { scope } = await viewerOf(request);
      return ok(request, reply, await openAlarmCountOf(database, scope));
    });
  };
}
