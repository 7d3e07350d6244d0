import {
  flockCompareQuerySchema,
  flockCompareSchema,
} from '../../../src/contract/productionCompare';
import { scopeOf } from '../../auth/scope';
import { sessionOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { compareFlocks } from '../compare';
import { localDay, readFlocks } from '../records';

/** A flock compared by day of age with the house's previous flocks or the farm's other houses. */
export function compareRoutes(ctx: AppContext): RoutePlugin {
  const { database, config } = ctx;
  return async (app) => {
    app.get(
      '/production/compare',
      {
        schema: {
          summary:
            "A flock by day of age beside the house's previous flocks or the farm's other houses",
          querystring: flockCompareQuerySchema,
          response: answers(flockCompareSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        const [flock] = await readFlocks(database, scope, { flockIds: [q.flockId] });
        if (!flock) throw new Refusal('notFound', 'production.flockNotFound');
        const today = localDay(new Date(), config.timeZone);
        return ok(
          request,
          reply,
          await compareFlocks(database, scope, flock, q.with, today, config.timeZone),
        );
      },
    );
  };
}
