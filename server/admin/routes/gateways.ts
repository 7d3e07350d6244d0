import { and, asc, eq, isNull } from 'drizzle-orm';
import { hashToken, newToken } from '../../auth/tokens';
import { breeds, flocks, gateways, houses } from '../../db/schema';
import { sessionOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { answers, done, type RoutePlugin } from '../../http/routeSchema';
import {
  flockCloseSchema,
  flockStartSchema,
  gatewayInputSchema,
  houseListQuerySchema,
  idBodySchema,
  type GatewayTokenResult,
  type HouseRow,
} from '../../../src/contract/admin';
import {
  gatewaySavedSchema,
  gatewayTokenSchema,
  houseListSchema,
  idAnswerSchema,
} from '../../../src/contract/adminAnswers';
import { conflictAs, logChange } from '../access';
import type { TakenBudget } from '../probes';
import { FARM_ADMIN_ROLES, houseForChange, nodeForChange } from './farms';

export function gatewayRoutes(ctx: AppContext, taken: TakenBudget): RoutePlugin {
  const { db } = ctx.database;
  // With a Mosquitto Roost manages, every gateway change reaches it before the answer.
  const accounts = ctx.brokerAccounts;
  return async (app) => {
    /** The houses of one farm with their gateway (never its token) and open flock. */
    app.get(
      '/house/listByFarm',
      {
        schema: {
          summary: 'The houses of a farm with their gateway (never its token) and open flock',
          querystring: houseListQuerySchema,
          response: answers(houseListSchema),
        },
        config: { roles: FARM_ADMIN_ROLES },
      },
      async (request, reply) => {
        const { farmId } = request.query;
        await nodeForChange(db, request, farmId, true);
        const rows = await db
          .select({ h: houses, g: gateways, f: flocks, breedName: breeds.name })
          .from(houses)
          .leftJoin(gateways, eq(gateways.houseId, houses.id))
          .leftJoin(flocks, and(eq(flocks.houseId, houses.id), isNull(flocks.closedOn)))
          .leftJoin(breeds, eq(breeds.id, flocks.breedId))
          .where(eq(houses.farmId, farmId))
          .orderBy(asc(houses.sort), asc(houses.id));
        const data: HouseRow[] = rows.map(({ h, g, f, breedName }) => ({
          id: h.id,
          farmId: h.farmId,
          name: h.name,
          sort: h.sort,
          gateway: g && {
            id: g.id,
            networkId: g.networkId,
            typeKey: g.typeKey,
            number: g.number,
            version: g.version,
            simCard: g.simCard,
            intervalSeconds: g.intervalSeconds,
          },
          flock: f && {
            id: f.id,
            breedId: f.breedId,
            breedName: breedName ?? '',
            placedOn: f.placedOn,
            ageAtPlacement: f.ageAtPlacement,
            headCount: f.headCount,
          },
        }));
        return ok(request, reply, { rows: data, total: data.length });
      },
    );

    /**
     * Creates the house's gateway (answering its device token, once) or updates it (the token
     * stays; /gateway/rotateToken replaces it).
     */
    app.post(
      '/gateway/save',
      {
        schema: {
          summary:
            "Creates a house's gateway, answering its device token once, or changes it (the token stays)",
          body: gatewayInputSchema,
          response: answers(gatewaySavedSchema),
        },
        config: { roles: FARM_ADMIN_ROLES, operating: true },
      },
      async (request, reply) => {
        const input = request.body;
        const house = await houseForChange(db, request, input.houseId);
        const userId = sessionOf(request).user.id;
        taken.assert(userId);
        const [existing] = await db.select().from(gateways).where(eq(gateways.houseId, house.id));
        const values = {
          networkId: input.networkId,
          typeKey: input.typeKey,
          number: input.number,
          version: input.version,
          simCard: input.simCard,
          intervalSeconds: input.intervalSeconds,
        };
        let result: GatewayTokenResult | { id: number; networkId: string };
        if (input.id === undefined) {
          if (existing) throw new ApiError(409, 'admin.houseHasOtherGateway');
          const token = newToken();
          const [row] = await db
            .insert(gateways)
            .values({
              ...values,
              houseId: house.id,
              tokenHash: hashToken(token),
              brokerSecret: accounts?.seal(token) ?? null,
            })
            .returning()
            .catch(conflictAs('admin.networkIdTaken', { budget: taken, userId }));
          await accounts?.gatewaySaved(row!.networkId, token);
          result = { id: row!.id, networkId: row!.networkId, token };
        } else {
          if (!existing || existing.id !== input.id) throw new ApiError(404, 'admin.notFound');
          await db
            .update(gateways)
            .set(values)
            .where(eq(gateways.id, existing.id))
            .catch(conflictAs('admin.networkIdTaken', { budget: taken, userId }));
          // A renamed gateway must not keep signing in under its old network id.
          ctx.ingest.directory.forget(existing.networkId);
          await ctx.events.emit('gatewayRevoked', existing.networkId);
          if (accounts && existing.networkId !== input.networkId) {
            await accounts.gatewayRemoved(existing.networkId);
            if (existing.brokerSecret)
              await accounts.gatewaySaved(input.networkId, accounts.open(existing.brokerSecret));
          }
          result = { id: existing.id, networkId: input.networkId };
        }
        await logChange(db, request, {
          function: 'gateway.save',
          operation:
            input.id === undefined
              ? { key: 'createGateway', params: {} }
              : { key: 'updateGateway', params: {} },
          house: { id: house.id, name: house.name },
          networkId: input.networkId,
        });
        return ok(request, reply, result, 'admin.saved');
      },
    );

    app.put(
      '/gateway/rotateToken',
      {
        schema: {
          summary: "Replaces a gateway's device token: the old one stops working at once",
          body: idBodySchema,
          response: answers(gatewayTokenSchema),
        },
        config: { roles: FARM_ADMIN_ROLES, operating: true },
      },
      async (request, reply) => {
        const { id } = request.body;
        const [gateway] = await db.select().from(gateways).where(eq(gateways.id, id));
        if (!gateway || gateway.houseId === null) throw new ApiError(404, 'admin.notFound');
        const house = await houseForChange(db, request, gateway.houseId);
        const token = newToken();
        await db
          .update(gateways)
          .set({ tokenHash: hashToken(token), brokerSecret: accounts?.seal(token) ?? null })
          .where(eq(gateways.id, id));
        // The ingest caches gateways for up to 30 s; the old token must stop working now.
        ctx.ingest.directory.forget(gateway.networkId);
        await ctx.events.emit('gatewayRevoked', gateway.networkId);
        // At Mosquitto too: the new password ends the session signed in with the old one.
        await accounts?.gatewaySaved(gateway.networkId, token);
        await logChange(db, request, {
          function: 'gateway.rotateToken',
          operation: { key: 'rotateDeviceToken', params: {} },
          house: { id: house.id, name: house.name },
          networkId: gateway.networkId,
        });
        const data: GatewayTokenResult = { id, networkId: gateway.networkId, token };
        return ok(request, reply, data, 'admin.saved');
      },
    );

    app.delete(
      '/gateway/delete',
      {
        schema: { summary: "Removes a house's gateway", body: idBodySchema, response: done },
        config: { roles: FARM_ADMIN_ROLES, operating: true },
      },
      async (request, reply) => {
        const { id } = request.body;
        const [gateway] = await db.select().from(gateways).where(eq(gateways.id, id));
        if (!gateway || gateway.houseId === null) throw new ApiError(404, 'admin.notFound');
        const house = await houseForChange(db, request, gateway.houseId);
        await db.delete(gateways).where(eq(gateways.id, id));
        ctx.ingest.directory.forget(gateway.networkId);
        await ctx.events.emit('gatewayRevoked', gateway.networkId);
        await accounts?.gatewayRemoved(gateway.networkId);
        await logChange(db, request, {
          function: 'gateway.delete',
          operation: { key: 'deleteGateway', params: {} },
          house: { id: house.id, name: house.name },
          networkId: gateway.networkId,
        });
        return ok(request, reply, null, 'admin.deleted');
      },
    );

    app.post(
      '/flock/start',
      {
        schema: {
          summary: 'Places a flock in a house that has none open',
          body: flockStartSchema,
          response: answers(idAnswerSchema),
        },
        config: { roles: FARM_ADMIN_ROLES, operating: true },
      },
      async (request, reply) => {
        const input = request.body;
        const house = await houseForChange(db, request, input.houseId);
        const [open] = await db
          .select({ id: flocks.id })
          .from(flocks)
          .where(and(eq(flocks.houseId, house.id), isNull(flocks.closedOn)));
        if (open) throw new ApiError(409, 'admin.flockOpen');
        if (input.breedId !== undefined) {
          const [breed] = await db
            .select({ id: breeds.id })
            .from(breeds)
            .where(eq(breeds.id, input.breedId));
          if (!breed) throw new ApiError(404, 'admin.notFound');
        }
        // The partial unique index (one open flock per house) also guards a race of two starts.
        const [row] = await db
          .insert(flocks)
          .values({ ...input, breedId: input.breedId ?? null })
          .returning({ id: flocks.id })
          .catch((error: unknown) => {
            const code = (error as { code?: string; cause?: { code?: string } }).cause?.code;
            if (code === '23505' || (error as { code?: string }).code === '23505')
              throw new ApiError(409, 'admin.flockOpen');
            throw error;
          });
        await logChange(db, request, {
          function: 'flock.start',
          operation: { key: 'startFlock', params: {} },
          house: { id: house.id, name: house.name },
          remark: `${input.placedOn}, ${input.headCount}`,
        });
        return ok(request, reply, { id: row!.id }, 'admin.saved');
      },
    );

    app.put(
      '/flock/close',
      {
        schema: {
          summary: "Closes a house's open flock on a day",
          body: flockCloseSchema,
          response: done,
        },
        config: { roles: FARM_ADMIN_ROLES, operating: true },
      },
      async (request, reply) => {
        const input = request.body;
        const house = await houseForChange(db, request, input.houseId);
        const [open] = await db
          .select()
          .from(flocks)
          .where(and(eq(flocks.houseId, house.id), isNull(flocks.closedOn)));
        if (!open) throw new ApiError(409, 'admin.noOpenFlock');
        if (input.closedOn < open.placedOn) throw new ApiError(400, 'admin.closeBeforePlacement');
        await db.update(flocks).set({ closedOn: input.closedOn }).where(eq(flocks.id, open.id));
        await logChange(db, request, {
          function: 'flock.close',
          operation: { key: 'closeFlock', params: {} },
          house: { id: house.id, name: house.name },
          remark: input.closedOn,
        });
        return ok(request, reply, null, 'admin.saved');
      },
    );
  };
}
