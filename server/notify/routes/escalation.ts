import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { pagedSchema } from '../../../src/contract/paged';
import { escalationInputSchema, escalationLevelSchema } from '../../../src/contract/notify';
import { alarmPhones } from '../../db/alarmSchema';
import { notifyPhoneLevels } from '../../db/notifySchema';
import type { AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { checkPlace, logChange, scopeFor } from './shared';

const listQuery = z.object({ farmId: z.coerce.number().int().positive().optional() });

/**
 * Escalation levels of alarm phone entries (kept beside the entries, which the alarm phone
 * routes own): level 0 is called as the entry says; level n only when nobody acknowledged
 * within the repeat interval of a level n−1 entry.
 */
export function escalationRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  const { db } = database;
  const p = alarmPhones;
  return async (app) => {
    app.get(
      '/notify/escalation/list',
      {
        schema: {
          summary:
            'The escalation level of each alarm phone entry in your scope (0: called at once)',
          querystring: listQuery,
          response: answers(pagedSchema(escalationLevelSchema)),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(database, request);
        const where: (SQL | undefined)[] = [];
        if (!scope.all)
          where.push(
            inArray(p.farmId, [...scope.farmIds]),
            or(isNull(p.houseId), inArray(p.houseId, [...scope.houseIds])),
          );
        if (q.farmId) where.push(eq(p.farmId, q.farmId));
        const rows = await db
          .select({
            phoneId: p.id,
            level: sql<number>`coalesce(${notifyPhoneLevels.level}, 0)`.mapWith(Number),
          })
          .from(p)
          .leftJoin(notifyPhoneLevels, eq(notifyPhoneLevels.phoneId, p.id))
          .where(and(...where))
          .orderBy(asc(p.id));
        return ok(request, reply, { rows, total: rows.length });
      },
    );

    app.post(
      '/notify/escalation/save',
      {
        schema: {
          summary: "Sets an alarm phone entry's escalation level",
          body: escalationInputSchema,
          response: answers(escalationLevelSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const v = request.body;
        const scope = await scopeFor(database, request);
        const [phone] = await db
          .select({ farmId: p.farmId, houseId: p.houseId, phone: p.phone })
          .from(p)
          .where(eq(p.id, v.phoneId));
        if (!phone) throw new Refusal('notFound', 'http.notFound');
        const house = await checkPlace(database, request, scope, phone.farmId, phone.houseId);
        await db
          .insert(notifyPhoneLevels)
          .values({ phoneId: v.phoneId, level: v.level })
          .onConflictDoUpdate({ target: notifyPhoneLevels.phoneId, set: { level: v.level } });
        await logChange(
          database,
          request,
          'notify.escalation.save',
          `${phone.phone} #${v.phoneId} → ${v.level}`,
          house,
        );
        return ok(request, reply, { phoneId: v.phoneId, level: v.level }, 'notify.levelSaved');
      },
    );
  };
}
