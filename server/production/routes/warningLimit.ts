import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  breedWarningAnswerSchema,
  breedWarningInputSchema,
  breedWarningQuerySchema,
  breedWarningReadSchema,
  DEFAULT_WARNING_LIMITS,
  houseWarningAnswerSchema,
  houseWarningInputSchema,
  houseWarningQuerySchema,
  resolveWarningLimits,
  type HouseWarningAnswer,
  type WarningLimits,
} from '../../../src/contract/earlyWarnings';
import { BREED_MANAGER_ROLES, breedForChange, visibleBreed } from '../../admin/breedAccess';
import { canSeeHouse, scopeOf } from '../../auth/scope';
import { breeds, flocks, houses } from '../../db/schema';
import { sessionOf, sourceOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { writeOperationLog } from '../../oplog';
import { Refusal } from '../../refusal';
import {
  readBreedLimits,
  readHouseLimits,
  saveBreedLimits,
  saveHouseLimits,
} from '../warningLimits';
import { evaluateDailyWarnings } from '../warnings';
import { localDay } from '../records';

/**
 * The early warnings' limits: a breed's (with the breed's other settings, for those who manage
 * breeds) and a house's override (for whoever operates the house). Setting either is an
 * operating action.
 */
export function warningLimitRoutes(ctx: AppContext): RoutePlugin {
  const { database, config } = ctx;
  const scopeFor = (request: FastifyRequest) => scopeOf(database.db, sessionOf(request).user);
  const operator = (request: FastifyRequest) => {
    const { user } = sessionOf(request);
    return { id: user.id, name: user.realName || user.username };
  };
  /** A house in scope with its open flock's breed, or a 404. */
  const houseOf = async (request: FastifyRequest, houseId: number) => {
    if (!canSeeHouse(await scopeFor(request), houseId))
      throw new Refusal('notFound', 'houses.notFound');
    const open = database.db
      .select({ breedId: flocks.breedId })
      .from(flocks)
      .where(and(eq(flocks.houseId, houses.id), isNull(flocks.closedOn)))
      .orderBy(desc(flocks.placedOn), desc(flocks.id))
      .limit(1)
      .as('f');
    const [house] = await database.db
      .select({ id: houses.id, name: houses.name, breedId: breeds.id, breedName: breeds.name })
      .from(houses)
      .leftJoinLateral(open, sql`true`)
      .leftJoin(breeds, eq(breeds.id, open.breedId))
      .where(eq(houses.id, houseId));
    if (!house) throw new Refusal('notFound', 'houses.notFound');
    return house;
  };
  const answerFor = async (
    house: Awaited<ReturnType<typeof houseOf>>,
  ): Promise<HouseWarningAnswer> => {
    const limits = await readHouseLimits(database, house.id);
    const breed = house.breedId === null ? {} : await readBreedLimits(database, house.breedId);
    return {
      houseId: house.id,
      limits,
      breed: house.breedId === null ? null : { id: house.breedId, name: String(house.breedName) },
      inherited: resolveWarningLimits(breed, {}),
      effective: resolveWarningLimits(breed, limits),
    };
  };
  // With the limits as they were, so the log can say what changed ("25 % → 20 %").
  const logged = (limits: WarningLimits, before: WarningLimits) => ({
    key: 'warningLimits' as const,
    params: { value: JSON.stringify(limits), before: JSON.stringify(before) },
  });

  return async (app) => {
    app.get(
      '/production/warnings/breed',
      {
        schema: {
          summary: "A breed's own early-warning limits and the defaults they override",
          querystring: breedWarningQuerySchema,
          response: answers(breedWarningReadSchema),
        },
        config: { roles: BREED_MANAGER_ROLES },
      },
      async (request, reply) => {
        const { breedId } = request.query;
        await visibleBreed(database.db, sessionOf(request).user, breedId);
        return ok(request, reply, {
          breedId,
          limits: await readBreedLimits(database, breedId),
          defaults: DEFAULT_WARNING_LIMITS,
        });
      },
    );

    app.put(
      '/production/warnings/breed',
      {
        schema: {
          summary: "Sets a breed's early-warning limits",
          body: breedWarningInputSchema,
          response: answers(breedWarningAnswerSchema),
        },
        config: { roles: BREED_MANAGER_ROLES, operating: true },
      },
      async (request, reply) => {
        const { breedId, limits } = request.body;
        const breed = await breedForChange(database.db, request, breedId);
        const before = await readBreedLimits(database, breedId);
        await saveBreedLimits(database, breedId, limits);
        await writeOperationLog(database.db, {
          operator: operator(request),
          function: 'production.warnings.breed',
          operation: logged(limits, before),
          remark: breed.name,
          source: sourceOf(request),
        });
        return ok(request, reply, { breedId, limits }, 'production.warningLimitsSaved');
      },
    );

    app.get(
      '/production/warnings/house',
      {
        schema: {
          summary: "A house's early-warning limits, what they fall back to and those in force",
          querystring: houseWarningQuerySchema,
          response: answers(houseWarningAnswerSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { houseId } = request.query;
        return ok(request, reply, await answerFor(await houseOf(request, houseId)));
      },
    );

    app.put(
      '/production/warnings/house',
      {
        schema: {
          summary: "Sets a house's own early-warning limits over its breed's",
          body: houseWarningInputSchema,
          response: answers(houseWarningAnswerSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const { houseId, limits } = request.body;
        const house = await houseOf(request, houseId);
        const before = await readHouseLimits(database, houseId);
        await saveHouseLimits(database, houseId, limits);
        await writeOperationLog(database.db, {
          operator: operator(request),
          function: 'production.warnings.house',
          operation: logged(limits, before),
          house: { id: house.id, name: house.name },
          source: sourceOf(request),
        });
        // New limits judge the flock's days now, not at the next tick or the next saved day.
        await evaluateDailyWarnings(ctx, [houseId], localDay(new Date(), config.timeZone));
        return ok(request, reply, await answerFor(house), 'production.warningLimitsSaved');
      },
    );
  };
}
