import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context';
import { ApiError } from '../http/errors';
import { fileAnswer, type RoutePlugin } from '../http/routeSchema';
import { bearerMatches } from './bearer';

/**
 * The operators' endpoints, outside /api: they take no session, only their own bearer token
 * (Prometheus and the backup script are not people signing in), and are registered beside
 * /api, not in it. Each is off, answering 404 as
 * if it did not exist, until its variable is set; a missing or wrong token answers 401.
 */
export function opsRoutes(ctx: AppContext): RoutePlugin {
  return async (app) => {
    app.get(
      '/metrics',
      {
        schema: {
          summary: "The server's metrics for Prometheus (needs the metrics token)",
          response: fileAnswer(
            ['text/plain', 'application/openmetrics-text'],
            'The metrics in the Prometheus text format',
          ),
        },
        config: { public: true },
      },
      async (request, reply) => {
        // Without the process's registry (an app built for a test) there is nothing to serve.
        guard(request, reply, ctx.metrics ? ctx.config.metricsToken : null);
        const { contentType, body } = await ctx.metrics!.scrape();
        return reply
          .header('content-type', contentType)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );

    // One copy at a time: each is built whole in memory, and a second would double that.
    let copying = false;
    app.post(
      '/ops/backup',
      {
        schema: {
          summary: 'A copy of the whole database as a gzipped archive (needs the backup token)',
          response: fileAnswer(['application/gzip'], 'The database archive (.tar.gz)'),
        },
        config: { public: true },
      },
      async (request, reply) => {
        guard(request, reply, ctx.config.backupToken);
        if (!ctx.database.dump) throw new ApiError(409, 'ops.backupPostgres');
        if (copying) throw new ApiError(409, 'ops.backupRunning');
        copying = true;
        const at = new Date();
        let archive: Uint8Array;
        try {
          archive = await ctx.database.dump();
        } finally {
          copying = false;
        }
        request.log.info(
          { bytes: archive.byteLength, seconds: (Date.now() - at.getTime()) / 1000 },
          'backup taken',
        );
        const name = `roost-${at.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
        return reply
          .header('content-type', 'application/gzip')
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('cache-control', 'no-store')
          .header('x-roost-backup-requested-at', at.toISOString())
          .send(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength));
      },
    );
  };
}

function guard(request: FastifyRequest, reply: FastifyReply, token: string | null): void {
  if (token === null) throw new ApiError(404, 'http.notFound');
  if (!bearerMatches(request.headers.authorization, token)) {
    reply.header('www-authenticate', 'Bearer');
    throw new ApiError(401, 'ops.tokenRequired');
  }
}
