import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
} from 'fastify';
import { adminRoutes } from './admin/routes';
import { alarmRoutes } from './alarms/routes';
import { authRoutes } from './auth/routes';
import { deviceRoutes } from './devices/routes';
import { findSession } from './auth/sessions';
import { houseRoutes } from './houses/routes';
import { tokenOf, type AppContext } from './http/context';
import { envelope, localeOf, sendError } from './http/envelope';
import { ApiError, apiErrorOf } from './http/errors';
import { translate } from './http/messages';
import { isSameSite } from './http/origin';
import { registerConsole } from './http/staticConsole';
import { ingestRoutes } from './ingest/routes';
import { systemRoutes } from './system/routes';
import { Refusal } from './refusal';
import { reminderRoutes } from './reminders/routes';
import { wallRoutes } from './wall/routes';

/**
 * Every feature's routes, mounted under /api: each feature folder owns its route modules
 * (`server/<feature>/routes.ts` or `routes/index.ts`) and is registered here, and only here.
 */
const FEATURE_ROUTES: ReadonlyArray<(ctx: AppContext) => FastifyPluginAsync> = [
  systemRoutes,
  authRoutes,
  ingestRoutes,
  alarmRoutes,
  adminRoutes,
  houseRoutes,
  wallRoutes,
  reminderRoutes,
  deviceRoutes,
];

/** JSON bodies above this are refused with 413; uploads set their own, larger limits. */
const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Builds the whole HTTP side without listening, so tests can `inject` requests into the real
 * thing. `main.ts` wires the database and the broker and calls `listen`.
 */
export async function buildApp(
  ctx: AppContext,
  options: FastifyServerOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    trustProxy: false,
    // The envelope names what went wrong; Fastify's own 4xx logging would only repeat it.
    logController: new LogController({ disableRequestLogging: true }),
    ...options,
  });
  app.decorateRequest('session', null);

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    return payload;
  });

  // Refuse state-changing calls from another site: a cross-site form or fetch cannot act for a user.
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    if (!isSameSite(request.headers.origin, request.headers.host))
      throw new ApiError(403, 'http.crossSite');
  });

  // Every /api route needs a live session unless it says `public`.
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.is404 || request.routeOptions.config.public)
      return;
    const token = tokenOf(request);
    if (!token) throw new ApiError(401, 'auth.required');
    request.session = await findSession(ctx.database.db, token);
    if (!request.session) throw new ApiError(401, 'auth.expired');
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) return sendError(request, reply, error);
    if (error instanceof Refusal) return sendError(request, reply, apiErrorOf(error));
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    const code = (error as { code?: string }).code ?? '';
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
      return sendError(request, reply, new ApiError(413, 'http.tooLarge'));
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      return sendError(request, reply, new ApiError(400, 'http.unsupportedMediaType'));
    }
    if (
      code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      return sendError(request, reply, new ApiError(400, 'http.malformedJson'));
    }
    if (status === 429) return sendError(request, reply, new ApiError(429, 'http.tooManyRequests'));
    if (status >= 400 && status < 500)
      return sendError(request, reply, new ApiError(400, 'http.badRequest'));
    request.log.error({ err: error, url: request.url }, 'request failed');
    return reply.code(500).send(envelope(500, translate('http.internal', localeOf(request)), null));
  });

  const console = await registerConsole(app, ctx.config.staticDir);
  app.setNotFoundHandler((request, reply) => {
    if (
      request.url.startsWith('/api/') ||
      request.url === '/api' ||
      !['GET', 'HEAD'].includes(request.method)
    ) {
      return sendError(request, reply, new ApiError(404, 'http.notFound'));
    }
    return console.sendIndex(reply);
  });

  await app.register(
    async (api) => {
      for (const routes of FEATURE_ROUTES) await api.register(routes(ctx));
    },
    { prefix: '/api' },
  );
  return app;
}
