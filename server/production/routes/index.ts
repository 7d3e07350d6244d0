import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  farmDayQuerySchema,
  kpiQuerySchema,
  houseMonthQuerySchema,
  saveDaySchema,
  taskDecisionSchema,
  type FlockKpis,
} from '../../../src/contract/production';
import { z } from 'zod';
import { canSeeFarm, canSeeHouse, scopeOf } from '../../auth/scope';
import { sessionOf, sourceOf, type AppContext } from '../../http/context';
import { ok, parseInput } from '../../http/envelope';
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
import { OPERATING } from '../../auth/operate';

const flocksQuery = z.object({
  houseId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  farmId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

/** Daily Business: the day's data, the month, flocks and their KPIs, the flock's tasks. */
export function productionRoutes(ctx: AppContext): FastifyPluginAsync {
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
    app.get('/production/day', async (request, reply) => {
      const q = parseInput(farmDayQuerySchema, request.query);
      const scope = await scopeFor(request);
      if (!canSeeFarm(scope, q.farmId)) throw new Refusal('notFound', 'houses.notFound');
      return ok(request, reply, await readFarmDay(database, scope, q.farmId, q.day));
    });

    app.post('/production/day', OPERATING, async (request, reply) => {
      const { records } = parseInput(saveDaySchema, request.body);
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
    });

    app.get('/production/month', async (request, reply) => {
      const q = parseInput(houseMonthQuerySchema, request.query);
      const scope = await scopeFor(request);
      if (!canSeeHouse(scope, q.houseId)) throw new Refusal('notFound', 'houses.notFound');
      return ok(request, reply, await readHouseMonth(database, q.houseId, q.month, today()));
    });

    app.get('/production/flocks', async (request, reply) => {
      const q = parseInput(flocksQuery, request.query);
      const scope = await scopeFor(request);
      if (q.houseId !== undefined && !canSeeHouse(scope, q.houseId))
        throw new Refusal('notFound', 'houses.notFound');
      if (q.farmId !== undefined && !canSeeFarm(scope, q.farmId))
        throw new Refusal('notFound', 'houses.notFound');
      return ok(request, reply, { rows: await readFlocks(database, scope, q) });
    });

    app.get('/production/kpi', async (request, reply) => {
      const q = parseInput(kpiQuerySchema, request.query);
      const scope = await scopeFor(request);
      const [flock] = await readFlocks(
        database,
        scope,
        q.flockId !== undefined ? { flockIds: [q.flockId] } : { houseId: q.houseId },
      );
      if (!flock) throw new Refusal('notFound', 'production.flockNotFound');
      const [kpis] = await loadFlockKpis(database, [flock], today(), config.timeZone);
      return ok(request, reply, kpis as FlockKpis);
    });

    app.post('/production/task', OPERATING, async (request, reply) => {
      const input = parseInput(taskDecisionSchema, request.body);
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
    });
  };
}
