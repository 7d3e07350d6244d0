import { z } from 'zod';
import {
  ingestAnswerSchema,
  ingestRejectedSchema,
  ingestStatsSchema,
  networkIdParamsSchema,
} from '../../src/contract/ingest';
import { tokenOf, type AppContext } from '../http/context';
import { localeOf, ok } from '../http/envelope';
import { ApiError } from '../http/errors';
import { translate } from '../http/messages';
import { answers, type RoutePlugin } from '../http/routeSchema';

/** Readings over HTTP for gateways without MQTT, and the ingest counters. */
export function ingestRoutes(ctx: AppContext): RoutePlugin {
  return async (app) => {
    /** Gateways without MQTT post here with `Authorization: Bearer <device token>`. */
    app.post(
      '/ingest/:networkId',
      {
        schema: {
          summary: "Takes a gateway's telemetry message (needs the gateway's device token)",
          params: networkIdParamsSchema,
          response: {
            ...answers(ingestAnswerSchema),
            422: z.object({
              success: z.literal(false),
              code: z.literal(422),
              msg: z.string(),
              data: ingestRejectedSchema,
            }),
          },
        },
        config: { public: true },
      },
      async (request, reply) => {
        const { networkId } = request.params;
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
          return reply
            .code(422)
            .send({ success: false, code: 422, msg, data: { reason: result.reason } });
        }
        return ok(
          request,
          reply,
          { status: result.status },
          result.status === 'stored' ? 'ingest.stored' : 'ingest.duplicate',
        );
      },
    );

    app.get(
      '/ingest/stats',
      {
        schema: {
          summary:
            'What ingestion has done since the server started: readings taken, stored, refused by reason',
          response: answers(ingestStatsSchema),
        },
        config: { roles: ['administrator'] },
      },
      async (request, reply) => {
        return ok(request, reply, ctx.ingest.counters.snapshot());
      },
    );
  };
}
