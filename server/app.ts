import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { adminRoutes } from './admin/routes';
import { alarmRoutes } from './alarms/routes';
import { authRoutes } from './auth/routes';
import { envcontrolRoutes } from './envcontrol/routes';
import { deviceRoutes } from './devices/routes';
import { refuseWithoutOperate } from './auth/operate';
import { findSession } from './auth/sessions';
import { houseRoutes } from './houses/routes';
import { tokenOf, type AppContext } from './http/context';
import { envelope, localeOf, sendError } from './http/envelope';
import {
  ApiError,
  apiErrorOf,
  databaseBusy,
  databaseUnavailable,
  inputRefusedByDatabase,
} from './http/errors';
import { translate } from './http/messages';
import { isSameSite } from './http/origin';
import { registerConsole } from './http/staticConsole';
import { ingestRoutes } from './ingest/routes';
import { emqxRoutes } from './brokerAuth/emqxRoutes';
import { opsRoutes } from './ops/routes';
import { systemRoutes } from './system/routes';
import { Refusal } from './refusal';
import { ThrottledLog } from './throttledLog';
import { reminderRoutes } from './reminders/routes';
import { productionRoutes } from './production/routes';
import { wallRoutes } from './wall/routes';
import { notifyRoutes } from './notify/routes';
import { upgradeRoutes } from './upgrade/routes';
import { compressJson } from './http/compressJson';
import {
  checkAnswer,
  zodSerializerCompiler,
  zodValidatorCompiler,
  type RouteSchema,
} from './http/routeSchema';
import type { RoleKey } from '../src/contract/roles';
import type { z } from 'zod';

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
  productionRoutes,
  notifyRoutes,
  envcontrolRoutes,
  deviceRoutes,
  upgradeRoutes,
];

export interface RegisteredRoute {
  method: string;
  url: string;
  public: boolean;
  /** Marked OPERATING: needs the operation permission. */
  operating: boolean;
  /** The roles that may call it; null when the route declares none (public ones). */
  roles: readonly RoleKey[] | null;
  /** What it takes and answers (server/http/routeSchema.ts); null when it declares nothing. */
  schema: RouteSchema | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: readonly RegisteredRoute[];
    /** Checks an answer sent as ready JSON text against the route's schema (null: answers not checked). */
    answerCheck: ((schema: z.ZodType, data: unknown, url: string) => void) | null;
  }
}

/** JSON bodies above this are refused with 413; uploads set their own, larger limits. */
const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether the request reached an /api route, judged by the route the router matched, not by
 * the raw URL: `/%61pi/logout` is routed to `/api/logout` and must meet the same checks.
 */
function isApiRoute(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith('/api/') ?? false;
}

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
    // Only the configured proxies' X-Forwarded-For names the client (sign-in throttling counts
    // by address); from anyone else the socket's own address counts.
    trustProxy: ctx.config.trustedProxies.length > 0 ? ctx.config.trustedProxies : false,
    // The envelope names what went wrong; Fastify's own 4xx logging would only repeat it.
    logController: new LogController({ disableRequestLogging: true }),
    ...options,
  });
  app.decorateRequest('session', null);
  // Every route as registered, for the tests that must reach all of them (matrix, fuzz).
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      registeredRoutes.push({
        method,
        url: route.url,
        public: route.config?.public === true,
        operating: route.config?.operating === true,
        roles: route.config?.roles ?? null,
        schema: (route.schema as RouteSchema | undefined) ?? null,
      });
  });

  // Routes declare their input and answers as zod schemas (server/http/routeSchema.ts).
  const drifted = (url: string, issue: string) =>
    app.log.error({ url, issue }, 'answer does not match its schema');
  app.setValidatorCompiler(zodValidatorCompiler(ctx.config.edition));
  app.setSerializerCompiler(zodSerializerCompiler(ctx.config.checkAnswers, drifted));
  app.decorate(
    'answerCheck',
    ctx.config.checkAnswers
      ? (schema: z.ZodType, data: unknown, url: string) => checkAnswer(schema, data, url, drifted)
      : null,
  );

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    return payload;
  });
  app.addHook('onSend', compressJson);

  // Refuse state-changing calls from another site: a cross-site form or fetch cannot act for a user.
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !isApiRoute(request)) return;
    if (!isSameSite(request.headers.origin, request.headers.host))
      throw new ApiError(403, 'http.crossSite');
  });

  // Every /api route needs a live session unless it says `public`.
  app.addHook('onRequest', async (request) => {
    if (!isApiRoute(request) || request.is404 || request.routeOptions.config.public) return;
    const token = tokenOf(request);
    if (!token) throw new ApiError(401, 'auth.required');
    request.session = await findSession(ctx.database.db, token);
    if (!request.session) throw new ApiError(401, 'auth.expired');
    const roles = request.routeOptions.config.roles;
    if (roles && !roles.includes(request.session.user.roleKey))
      throw new ApiError(403, 'auth.forbidden');
    refuseWithoutOperate(request);
  });

  const failures = new ThrottledLog(app.log);
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
    const refused = inputRefusedByDatabase(error);
    if (refused) return sendError(request, reply, refused);
    if (status >= 400 && status < 500)
      return sendError(request, reply, new ApiError(400, 'http.badRequest'));
    if (databaseBusy(error)) {
      failures.error('databaseBusy', { err: error, url: request.url }, 'request failed: pool busy');
      void reply.header('retry-after', '5');
      return sendError(request, reply, new ApiError(503, 'http.busy'));
    }
    if (databaseUnavailable(error)) {
      failures.error(
        'database',
        { err: error, url: request.url },
        'request failed: database unavailable',
      );
      void reply.header('retry-after', '10');
      return sendError(request, reply, new ApiError(503, 'http.storageUnavailable'));
    }
    failures.error('request', { err: error, url: request.url }, 'request failed');
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
  // The operators' endpoints (/metrics, /ops/backup): beside /api, with tokens of their own.
  await app.register(opsRoutes(ctx));
  // EMQX's HTTP authentication and authorization of gateways, with a secret of their own.
  await app.register(emqxRoutes(ctx));
  return app;
}
