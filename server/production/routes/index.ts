import type { FastifyRequest } from 'fastify';
import {
  farmDayQuerySchema,
  farmDaySchema,
  flockKpisSchema,
  flockListSchema,
  flocksQuerySchema,
  houseMonthQuerySchema,
  houseMonthSchema,
  kpiQuerySchema,
  saveDaySchema,
  savedDaysSchema,
  taskDecidedSchema,
  taskDecisionSchema,
  type FlockKpis,
} from '../../../src/contract/production';
import { canSeeFarm, canSeeHouse, scopeOf } from '../../auth/scope';
import { sessionOf, sourceOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { writeOperationLog } from '../../oplog';
import { Refusal } from '../../refusal';
import { loadFlockKpis } from '../flockKpis';
import { powerRoutes } from './power';
import { compareRoutes } from './compare';
import { exportRoutes } from './export';
import { warningLimitRoutes } from './warningLimit';
import { localDay, readFarmDay, readFlocks, readHouseMonth, saveDays } from '../records';
import { decideTask } from '../tasks';
import { evaluateDailyWarnings } from '../warnings';

/**
 * Daily Business: the day's data, the month, flocks and their KPIs, the flock's tasks. Every
 * signed-in user may ask (what they reach is their scope's); saving is an operating action.
 */
export function productionRoutes(ctx: AppContext): RoutePlugin {
  const { database, config } = ctx;
  const scopeFor = (request: FastifyRequest) => scopeOf(database.db, sessionOf(request).user);
  const today = () => localDay(new Date(), config.timeZone);
  const operator = (request: FastifyRequest) => {
    const { user } = sessionOf(request);
    return { id: user.id, name: user.realName || user.username };
  };

  return async (app) => {
    await app.register(powerRoutes(ctx));
    await app.register(compareRoutes(ctx));
    await app.register(exportRoutes(ctx));
    await app.register(warningLimitRoutes(ctx));
    app.get(
      '/production/day',
      {
        schema: {
          summary: "A farm's houses with their daily record of a day",
          querystring: farmDayQuerySchema,
          response: answers(farmDaySchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        if (!canSeeFarm(scope, q.farmId)) throw new Refusal('notFound', 'houses.notFound');
        return ok(request, reply, await readFarmDay(database, scope, q.farmId, q.day));
      },
    );

    app.post(
      '/production/day',
      {
        schema: {
          summary: 'Saves daily records (birds, feed, water, eggs) of houses',
          body: saveDaySchema,
          response: answers(savedDaysSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const { records } = request.body;
        const scope = await scopeFor(request);
        const saved = await saveDays(database, scope, sessionOf(request).user.id, records, today());
        for (const s of saved)
          await writeOperationLog(database.db, {
            operator: operator(request),
            function: 'production.day',
            operation: { key: 'dailyRecord', params: { day: s.day, id: s.flockId } },
            house: { id: s.houseId, name: s.houseName },
            source: sourceOf(request),
          });
        // A saved day may start or end a daily warning (water down day over day, feed off standard).
        await evaluateDailyWarnings(ctx, [...new Set(saved.map((s) => s.houseId))], today());
        return ok(request, reply, { saved: saved.length }, 'production.saved');
      },
    );

    app.get(
      '/production/month',
      {
        schema: {
          summary: "A house's daily records of a month",
          querystring: houseMonthQuerySchema,
          response: answers(houseMonthSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        if (!canSeeHouse(scope, q.houseId)) throw new Refusal('notFound', 'houses.notFound');
        return ok(request, reply, await readHouseMonth(database, q.houseId, q.month, today()));
      },
    );

    app.get(
      '/production/flocks',
      {
        schema: {
          summary: 'The flocks of a house or a farm in scope, placed and closed',
          querystring: flocksQuerySchema,
          response: answers(flockListSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        if (q.houseId !== undefined && !canSeeHouse(scope, q.houseId))
          throw new Refusal('notFound', 'houses.notFound');
        if (q.farmId !== undefined && !canSeeFarm(scope, q.farmId))
          throw new Refusal('notFound', 'houses.notFound');
        return ok(request, reply, { rows: await readFlocks(database, scope, q) });
      },
    );

    app.get(
      '/production/kpi',
      {
        schema: {
          summary: "A flock's KPIs by day of age against its breed standard",
          querystring: kpiQuerySchema,
          response: answers(flockKpisSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        const [flock] = await readFlocks(
          database,
          scope,
          q.flockId !== undefined ? { flockIds: [q.flockId] } : { houseId: q.houseId },
        );
        if (!flock) throw new Refusal('notFound', 'production.flockNotFound');
        const [kpis] = await loadFlockKpis(database, [flock], today(), config.timeZone);
        return ok(request, reply, kpis as FlockKpis);
      },
    );

    app.post(
      '/production/task',
      {
        schema: {
          summary: "Marks a flock's task of the day done or skipped",
          body: taskDecisionSchema,
          response: answers(taskDecidedSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const input = request.body;
        const scope = await scopeFor(request);
        const [flock] = await readFlocks(database, scope, { flockIds: [input.flockId] });
        if (!flock) throw new Refusal('notFound', 'production.flockNotFound');
        await decideTask(database, flock, input, sessionOf(request).user.id);
        await writeOperationLog(database.db, {
          operator: operator(request),
          function: 'production.task',
          operation: {
            key: 'flockTask',
            params: { content: input.content, state: input.state, id: flock.id },
          },
          house: { id: flock.houseId, name: flock.houseName },
          source: sourceOf(request),
        });
        return ok(request, reply, { state: input.state }, 'production.taskSaved');
      },
    );
  };
}
