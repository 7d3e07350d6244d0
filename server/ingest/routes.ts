import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { sessionOf, tokenOf, type AppContext } from '../http/context';
import { envelope, localeOf, ok, parseInput } from '../http/envelope';
import { ApiError } from '../http/errors';
import { translate } from '../http/messages';

const networkIdParams = z.object({ networkId: z.string().min(1).max(64) });

/** Readings over HTTP for gateways without MQTT, and the ingest counters. */
export function ingestRoutes(ctx: AppContext): FastifyPluginAsync {
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
  };
}
