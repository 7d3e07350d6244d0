import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  wallFarmParamsSchema,
  wallProvinceParamsSchema,
  type WallFarmHouses,
  type WallMap,
  type WallProvince,
} from '../../src/contract/wall';
import { canSeeFarm, scopeOf } from '../auth/scope';
import { wallFarms, wallHouses } from '../wall/wallQueries';
import { sessionOf, type AppContext } from './context';
import { ok, parseInput } from './envelope';
import { ApiError } from './errors';

/** The alarm overview wall screen (issue 7): farms on the map, drill-down data. Mounted under /api. */
export function wallRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database } = ctx;
  const scopeOfRequest = (request: FastifyRequest) => scopeOf(database.db, sessionOf(request).user);

  return async (app) => {
    /** Every farm in scope with its position, house count and worst state; China or World. */
    app.get('/wall/map', async (request, reply) => {
      const scope = await scopeOfRequest(request);
      const data: WallMap = {
        mapType: sessionOf(request).user.mapType,
        farms: await wallFarms(database, scope),
      };
      return ok(request, reply, data);
    });

    /** The farms of one province (drill-down). */
    app.get('/wall/province/:adcode', async (request, reply) => {
      const { adcode } = parseInput(wallProvinceParamsSchema, request.params);
      const scope = await scopeOfRequest(request);
      const data: WallProvince = { adcode, farms: await wallFarms(database, scope, { adcode }) };
      return ok(request, reply, data);
    });

    /** One farm and its houses (drill-down); outside the scope looks like not existing. */
    app.get('/wall/farm/:farmId', async (request, reply) => {
      const { farmId } = parseInput(wallFarmParamsSchema, request.params);
      const scope = await scopeOfRequest(request);
      const [farm] = canSeeFarm(scope, farmId) ? await wallFarms(database, scope, { farmId }) : [];
      if (!farm) throw new ApiError(404, 'wall.farmNotFound');
      const data: WallFarmHouses = { farm, houses: await wallHouses(database, scope, farmId) };
      return ok(request, reply, data);
    });
  };
}
