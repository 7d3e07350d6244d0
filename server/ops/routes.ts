import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context';
import { ApiError } from '../http/errors';
import { fileAnswer, type RoutePlugin } from '../http/routeSchema';
import { backupArchive } from './backupArchive';
import { bearerMatches } from './bearer';
import { openKeptFiles } from './keptFiles';

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

    // One copy at a time: the database's dump is built whole in memory, and a second would
    // double that. It is held until the client has taken the whole archive.
    let copying = false;
    app.post(
      '/ops/backup',
      {
        schema: {
          summary:
            'A backup of everything the server keeps: its embedded database and the files of DATA_DIR, as a tar (needs the backup token)',
          response: fileAnswer(['application/x-tar'], 'The backup (a tar: README, "Backups")'),
        },
        config: { public: true },
      },
      async (request, reply) => {
        guard(request, reply, ctx.config.backupToken);
        if (copying) throw new ApiError(409, 'ops.backupRunning');
        copying = true;
        const at = new Date();
        let archive: ReturnType<typeof backupArchive>;
        try {
          // PostgreSQL is backed up with its own tools; its server's files still come here.
          const dump = ctx.database.dump ? await ctx.database.dump() : null;
          // Opened after the copy: every upgrade file the copied database lists is on disk.
          const files = await openKeptFiles(ctx.config.dataDir);
          archive = backupArchive({ dump, files, requestedAt: at }, () => {
            copying = false;
          });
          request.log.info(
            {
              bytes: archive.bytes,
              files: files.length,
              seconds: (Date.now() - at.getTime()) / 1000,
            },
            'backup taken',
          );
        } catch (error) {
          copying = false;
          throw error;
        }
        // The answer sent whole, or its client gone: the next backup may start.
        reply.raw.once('finish', archive.release);
        reply.raw.once('close', archive.release);
        const name = `roost-${at.toISOString().replace(/[:.]/g, '-')}.tar`;
        return reply
          .header('content-type', 'application/x-tar')
          .header('content-length', archive.bytes)
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('cache-control', 'no-store')
          .header('x-roost-backup-requested-at', at.toISOString())
          .header('x-roost-backup-database', ctx.database.dump ? 'pglite' : 'none')
          .send(archive.stream);
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
