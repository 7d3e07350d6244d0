import {
  remindersQuerySchema,
  remindersSchema,
  type Reminders,
} from '../../src/contract/reminders';
import { canSeeHouse, scopeOf } from '../auth/scope';
import { sessionOf, type AppContext } from '../http/context';
import { ok } from '../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../http/routeSchema';
import { Refusal } from '../refusal';
import { REMINDER_SOURCES } from './sources';
import { REMINDERS_PER_KIND } from './types';

/** The day's reminders of every kind, in the caller's scope (the home page, the monitor). */
export function reminderRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  return async (app) => {
    app.get(
      '/reminder/today',
      {
        schema: {
          summary:
            "Today's reminders in your scope or one house: open alarms, tasks, devices due, parameter changes",
          querystring: remindersQuerySchema,
          response: answers(remindersSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        if (q.houseId !== undefined && !canSeeHouse(scope, q.houseId))
          throw new Refusal('notFound', 'houses.notFound');
        const query = {
          database,
          scope,
          now: new Date(),
          timeZone: ctx.config.timeZone,
          completenessMinPercent: ctx.config.completenessMinPercent,
        };
        const kinds = await Promise.all(
          REMINDER_SOURCES.map((source) =>
            source.read(q.houseId === undefined ? query : { ...query, houseId: q.houseId }),
          ),
        );
        const data: Reminders = {
          rows: kinds.flatMap((rows) => rows.slice(0, REMINDERS_PER_KIND)),
        };
        return ok(request, reply, data);
      },
    );
  };
}
