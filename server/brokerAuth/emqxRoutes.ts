import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context';
import { ApiError } from '../http/errors';
import type { RoutePlugin } from '../http/routeSchema';
import { bearerMatches } from '../ops/bearer';
import {
  GATEWAY_PUBLISHES,
  GATEWAY_SUBSCRIBES,
  gatewayTopic,
  parseGatewayTopic,
} from '../../src/contract/gateway';
import {
  emqxAuthnAnswerSchema,
  emqxAuthnRequestSchema,
  emqxAuthzAnswerSchema,
  emqxAuthzRequestSchema,
} from '../../src/contract/emqx';

/**
 * EMQX asks Roost whether a gateway may connect and use a topic (its HTTP authenticator and
 * authorizer), so a gateway created, given a new token or deleted in the console is admitted or
 * refused by EMQX from the next connection on. Outside /api (EMQX is not a person signing in),
 * answered only to `Authorization: Bearer ROOST_EMQX_SECRET`; unset, 404.
 *
 * A user name that is no gateway gets `ignore`, so EMQX's next source (its built-in database,
 * holding Roost's own ingest user) decides; a gateway's wrong token or foreign topic gets `deny`.
 */
export function emqxRoutes(ctx: AppContext): RoutePlugin {
  const secret = ctx.config.brokerAuth.emqxSecret;
  return async (app) => {
    app.post(
      '/broker/emqx/authn',
      {
        schema: {
          summary: "EMQX's HTTP authentication: may this gateway connect (needs the EMQX secret)",
          body: emqxAuthnRequestSchema,
          response: { 200: emqxAuthnAnswerSchema },
        },
        config: { public: true },
      },
      async (request, reply) => {
        guard(request, reply, secret);
        const { username, password } = request.body;
        const known = await ctx.ingest.directory.find(username);
        if (!known) return { result: 'ignore' as const, is_superuser: false };
        const gateway = await ctx.ingest.directory.verifyToken(username, password);
        return { result: gateway ? ('allow' as const) : ('deny' as const), is_superuser: false };
      },
    );

    app.post(
      '/broker/emqx/authz',
      {
        schema: {
          summary:
            "EMQX's HTTP authorization: may this gateway publish or subscribe to a topic (needs the EMQX secret)",
          body: emqxAuthzRequestSchema,
          response: { 200: emqxAuthzAnswerSchema },
        },
        config: { public: true },
      },
      async (request, reply) => {
        guard(request, reply, secret);
        const { username, action, topic } = request.body;
        const known = await ctx.ingest.directory.find(username);
        if (!known) return { result: 'ignore' as const };
        return {
          result: mayUse(known.networkId, action, topic) ? ('allow' as const) : ('deny' as const),
        };
      },
    );
  };
}

/**
 * A gateway publishes only its own seven topics and subscribes only to its three command
 * topics, literally: EMQX checks a subscription once, not each message it forwards, so a
 * wildcard below its own id would also bring it its own readings.
 */
function mayUse(
  networkId: string,
  action: 'publish' | 'subscribe' | 'all',
  topic: string,
): boolean {
  if (action === 'subscribe')
    return GATEWAY_SUBSCRIBES.some((kind) => gatewayTopic(networkId, kind) === topic);
  if (action === 'all') return false;
  const parsed = parseGatewayTopic(topic);
  return (
    parsed !== null &&
    parsed.networkId === networkId &&
    GATEWAY_PUBLISHES.includes(parsed.kind) &&
    topic === gatewayTopic(networkId, parsed.kind)
  );
}

function guard(request: FastifyRequest, reply: FastifyReply, secret: string | null): void {
  if (secret === null) throw new ApiError(404, 'http.notFound');
  if (!bearerMatches(request.headers.authorization, secret)) {
    reply.header('www-authenticate', 'Bearer');
    throw new ApiError(401, 'ops.tokenRequired');
  }
}
