import type { FastifyPluginAsync } from 'fastify';
import { flockCompareQuerySchema } from '../../../src/contract/productionCompare';
import { scopeOf } from '../../auth/scope';
import { sessionOf, type AppContext } from '../../http/context';
import { ok, parseInput } from '../../http/envelope';
import { Refusal } from '../../refusal';
import { compareFlocks } from '../compare';
import { localDay, readFlocks } from '../records';

/** A flock compared by day of age with the house's previous flocks or the farm's other houses. */
export function compareRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database, config } = ctx;
  return async (app) => {
    app.get('/production/compare', async (request, reply) => {
      const q = parseInput(flockCompareQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      const [flock] = await readFlocks(database, scope, { flockIds: [q.flockId] });
      if (!flock) throw new Refusal('notFound', 'production.flockNotFound');
      const today = localDay(new Date(), config.timeZone);
      return ok(
        request,
        reply,
        await compareFlocks(database, scope, flock, q.with, today, config.timeZone),
      );
    });
  };
}
