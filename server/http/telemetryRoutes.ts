import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { overviewQuerySchema, trendQuerySchema } from '../../src/contract/overview';
import { canSeeHouse, scopeOf } from '../auth/scope';
import { readTrend } from '../trends/readTrend';
import { overviewOf } from '../houses/overview';
import { sessionOf, tokenOf, type AppContext } from './context';
import { envelope, localeOf, ok, parseInput } from './envelope';
import { ApiError } from './errors';
import { translate } from './messages';

const networkIdParams = z.object({ networkId: z.string().min(1).max(64) });

export function telemetryRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database } = ctx;
  return async (app) => {
    /** Gateways without MQTT post here with `Authorization: Bearer <device token>`. */
    app.post('/ingest/:networkId', { config: { public: true } }, async (request, reply) => {
      const { networkId } = parseInput(networkIdParams, request.params);
      const gateway = await ctx.ingest.directory.verifyToken(networkId, tokenOf(request) ?? '');
      if (!gateway) {
        ctx.ingest.rejected(networkId, 'badToken', 'wrong device token or unknown network id');
        throw new ApiError(401, 'ingest.badToken');
      }
      const result = await ctx.ingest.submitTelemetry(networkId, request.body, gateway);
      if (result.status === 'rejected') {
        const msg = translate('ingest.rejected', localeOf(request), {
          reason: result.reason,
          detail: result.detail,
        });
        return reply.code(422).send(envelope(422, msg, { reason: result.reason }));
      }
      return ok(
        request,
        reply,
        { status: result.status },
        result.status === 'stored' ? 'ingest.stored' : 'ingest.duplicate',
      );
    });

    app.get('/ingest/stats', async (request, reply) => {
      if (sessionOf(request).user.roleKey !== 'administrator')
        throw new ApiError(403, 'auth.forbidden');
      return ok(request, reply, ctx.ingest.counters.snapshot());
    });

    app.get('/overview/listOverview/', async (request, reply) => {
      const query = parseInput(overviewQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      const data = await overviewOf(database, scope, ctx.config.timeZone, {
        farmId: query.farmId,
        houseId: query.houseId,
      });
      return ok(request, reply, { rows: data, total: data.length });
    });

    app.get('/trend/house', async (request, reply) => {
      const query = parseInput(trendQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      // Outside the scope looks the same as not existing.
      if (!canSeeHouse(scope, query.houseId)) throw new ApiError(404, 'http.notFound');
      return ok(request, reply, await readTrend(database, query, ctx.config.timeZone));
    });
  };
}
