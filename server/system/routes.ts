import type { FastifyPluginAsync } from 'fastify';
import type { Health, PublicConfig } from '../../src/contract/config';
import type { AppContext } from '../http/context';
import { envelope, ok } from '../http/envelope';
import { probeWrite } from './probe';

export function systemRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get('/health', { config: { public: true } }, async (request, reply) => {
      const write = await probeWrite(ctx.database);
      const health: Health = {
        db: (await ctx.database.ping()) ? 'ok' : 'down',
        mqtt: ctx.mqttState(),
        live: 'ok',
        // Named only when writes fail, with the reason: a healthy answer keeps its shape.
        ...(write === null ? {} : { write: 'down' as const, reason: write }),
      };
      const healthy = health.db === 'ok' && write === null && health.mqtt !== 'down';
      if (!healthy) return reply.code(503).send(envelope(503, 'unhealthy', health));
      return ok(request, reply, health);
    });

    app.get('/config', { config: { public: true } }, async (request, reply) => {
      const config: PublicConfig = {
        edition: ctx.config.edition,
        alarmScreen: ctx.config.alarmScreen,
        version: ctx.version,
        demo: ctx.config.demo === true,
      };
      return ok(request, reply, config);
    });
  };
}
