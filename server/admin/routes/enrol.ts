import { randomInt } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  ENROL_CODE_ALPHABET,
  ENROL_CODE_MINUTES,
  enrolAnswerSchema,
  enrolCodeRequestSchema,
  enrolCodeSchema,
  enrolRequestSchema,
  type EnrolAnswer,
  type EnrolCode,
} from '../../../src/contract/enrol';
import { hashToken, newToken } from '../../auth/tokens';
import { recordFailure, throttledForMinutes } from '../../auth/throttle';
import { gatewayEnrolCodes, gateways, houses } from '../../db/schema';
import { sourceOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { answers, type RoutePlugin } from '../../http/routeSchema';
import { writeOperationLog } from '../../oplog';
import { logChange } from '../access';
import { FARM_ADMIN_ROLES, houseForChange } from './farms';

/** Twelve characters of the code alphabet as XXXX-XXXX-XXXX. */
function newEnrolCode(): string {
  const chars = Array.from(
    { length: 12 },
    () => ENROL_CODE_ALPHABET[randomInt(ENROL_CODE_ALPHABET.length)],
  ).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

/**
 * The broker an enrolled edge connects to: ROOST_EDGE_MQTT_URL, else the external broker's URL
 * without the server's own credentials, else the embedded broker on the host name the edge used.
 */
function brokerUrlFor(ctx: AppContext, request: FastifyRequest): string {
  const { edgeMqttUrl, mqttUrl, mqttPort } = ctx.config;
  if (edgeMqttUrl) return edgeMqttUrl;
  if (mqttUrl) {
    const url = new URL(mqttUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  }
  return `mqtt://${request.hostname.replace(/:\d+$/, '')}:${mqttPort ?? 1883}`;
}

/** The throttle's key: each address has its own budget of wrong codes (like sign-in's pair). */
const throttleKey = (address: string) => `enrol:${address}`;

/**
 * Enrolment of a gateway by Roost Edge. Making a code needs the rights of rotating a token;
 * using it is public (the edge has no session) and throttled like sign-in.
 *
 * Using a code gives the gateway a new device token, so the one it had stops working: tokens are
 * stored only as hashes, so there is no old one to hand out, and one gateway has one token.
 * Console sessions are untouched.
 */
export function enrolRoutes(ctx: AppContext): RoutePlugin {
  const { db } = ctx.database;
  return async (app) => {
    app.put(
      '/gateway/enrolCode',
      {
        schema: {
          summary: `A single-use code, valid ${ENROL_CODE_MINUTES} minutes, that lets Roost Edge fetch the gateway's network id and a new token`,
          body: enrolCodeRequestSchema,
          response: answers(enrolCodeSchema),
        },
        config: { roles: FARM_ADMIN_ROLES, operating: true },
      },
      async (request, reply) => {
        const { id } = request.body;
        const [gateway] = await db.select().from(gateways).where(eq(gateways.id, id));
        if (!gateway || gateway.houseId === null) throw new ApiError(404, 'admin.notFound');
        const house = await houseForChange(db, request, gateway.houseId);
        const code = newEnrolCode();
        const expiresAt = new Date(Date.now() + ENROL_CODE_MINUTES * 60_000);
        await db
          .insert(gatewayEnrolCodes)
          .values({ gatewayId: id, codeHash: hashToken(code), expiresAt });
        await logChange(db, request, {
          function: 'gateway.enrolCode',
          operation: { key: 'createEnrolCode', params: {} },
          house: { id: house.id, name: house.name },
          networkId: gateway.networkId,
        });
        const data: EnrolCode = {
          id,
          networkId: gateway.networkId,
          code,
          expiresAt: expiresAt.toISOString(),
        };
        return ok(request, reply, data, 'edge.enrolCodeMade');
      },
    );

    app.post(
      '/edge/enrol',
      {
        schema: {
          summary:
            "Trades an enrolment code (once) for the gateway's network id, a new device token and the broker's URL",
          body: enrolRequestSchema,
          response: answers(enrolAnswerSchema),
        },
        config: { public: true },
      },
      async (request, reply) => {
        const address = request.ip;
        const key = throttleKey(address);
        const minutes = await throttledForMinutes(db, key, address);
        if (minutes > 0) throw new ApiError(429, 'edge.enrolThrottled', { minutes });
        const codeHash = hashToken(request.body.code);
        const token = newToken();
        const now = new Date();
        // One statement takes the code, so two edges racing with it cannot both have it.
        const enrolled = await db.transaction(async (tx) => {
          const [taken] = await tx
            .update(gatewayEnrolCodes)
            .set({ usedAt: now })
            .where(
              and(
                eq(gatewayEnrolCodes.codeHash, codeHash),
                isNull(gatewayEnrolCodes.usedAt),
                gt(gatewayEnrolCodes.expiresAt, now),
              ),
            )
            .returning({ gatewayId: gatewayEnrolCodes.gatewayId });
          if (!taken) return null;
          const [gateway] = await tx
            .update(gateways)
            .set({ tokenHash: hashToken(token) })
            .where(eq(gateways.id, taken.gatewayId))
            .returning({ networkId: gateways.networkId, houseId: gateways.houseId });
          return gateway ?? null;
        });
        if (!enrolled) {
          const [known] = await db
            .select({ usedAt: gatewayEnrolCodes.usedAt })
            .from(gatewayEnrolCodes)
            .where(eq(gatewayEnrolCodes.codeHash, codeHash));
          await recordFailure(db, key, address);
          throw new ApiError(
            400,
            !known ? 'edge.enrolUnknown' : known.usedAt ? 'edge.enrolUsed' : 'edge.enrolExpired',
          );
        }
        // The ingest caches gateways for up to 30 s; the old token must stop working now.
        ctx.ingest.directory.forget(enrolled.networkId);
        await ctx.events.emit('gatewayRevoked', enrolled.networkId);
        const [house] =
          enrolled.houseId === null
            ? []
            : await db
                .select({ id: houses.id, name: houses.name })
                .from(houses)
                .where(eq(houses.id, enrolled.houseId));
        await writeOperationLog(db, {
          operator: { id: null, name: 'Roost Edge' },
          function: 'gateway.enrol',
          operation: { key: 'enrolGateway', params: {} },
          house: house ?? null,
          networkId: enrolled.networkId,
          source: sourceOf(request),
        });
        const data: EnrolAnswer = {
          networkId: enrolled.networkId,
          token,
          mqttUrl: brokerUrlFor(ctx, request),
        };
        return ok(request, reply, data, 'edge.enrolled');
      },
    );
  };
}
