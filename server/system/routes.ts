import { z } from 'zod';
import {
  healthSchema,
  publicConfigSchema,
  versionSchema,
  type Health,
} from '../../src/contract/config';
import type { AppContext } from '../http/context';
import { ok } from '../http/envelope';
import { ANY_ROLE, answers, fileAnswer, type RoutePlugin } from '../http/routeSchema';
import { openApiDocument } from './openapi';
import { probeWrite } from './probe';

export function systemRoutes(ctx: AppContext): RoutePlugin {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          summary: 'Whether the database, its writes and the broker work (503 when not)',
          response: {
            ...answers(healthSchema),
            503: z.object({
              success: z.literal(false),
              code: z.literal(503),
              msg: z.literal('unhealthy'),
              data: healthSchema,
            }),
          },
        },
        config: { public: true },
      },
      async (request, reply) => {
        const write = await probeWrite(ctx.database);
        const health: Health = {
          db: (await ctx.database.ping()) ? 'ok' : 'down',
          mqtt: ctx.mqttState(),
          live: 'ok',
          // Named only when writes fail, with the reason: a healthy answer keeps its shape.
          ...(write === null ? {} : { write: 'down' as const, reason: write }),
        };
        const healthy = health.db === 'ok' && write === null && health.mqtt !== 'down';
        if (!healthy)
          return reply
            .code(503)
            .send({ success: false, code: 503, msg: 'unhealthy', data: health });
        return ok(request, reply, health);
      },
    );

    // Monitoring and the operators' tools ask which release runs without signing in; the
    // console reads it from /config with its other flags.
    app.get(
      '/version',
      {
        schema: {
          summary: 'The release this server runs',
          response: answers(versionSchema),
        },
        config: { public: true },
      },
      async (request, reply) => ok(request, reply, { version: ctx.version }),
    );

    app.get(
      '/config',
      {
        schema: {
          summary: 'The flags the console needs before anyone signs in',
          response: answers(publicConfigSchema),
        },
        config: { public: true },
      },
      async (request, reply) =>
        ok(request, reply, {
          edition: ctx.config.edition,
          alarmScreen: ctx.config.alarmScreen,
          version: ctx.version,
          demo: ctx.config.demo === true,
        }),
    );

    // Written once, when first asked: the routes are all registered by then.
    let document: string | null = null;
    app.get(
      '/openapi.json',
      {
        schema: {
          summary: 'This API described as an OpenAPI 3.1 document',
          response: fileAnswer(['application/json'], 'The OpenAPI 3.1 document (not enveloped)'),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        document ??= JSON.stringify(openApiDocument(request.server.registeredRoutes, ctx.version));
        return reply.type('application/json; charset=utf-8').send(document);
      },
    );
  };
}
