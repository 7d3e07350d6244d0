import { z } from 'zod';
import { pagedSchema } from '../../../src/contract/paged';
import { escalationInputSchema, escalationLevelSchema } from '../../../src/contract/notify';
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
        const params: unknown[] = [];
        const where: string[] = [];
        if (!scope.all)
          where.push(
            `p.farm_id = any($${params.push([...scope.farmIds])}::int[]) and (p.house_id is null or p.house_id = any($${params.push([...scope.houseIds])}::int[]))`,
          );
        if (q.farmId) where.push(`p.farm_id = $${params.push(q.farmId)}`);
        const rows = await database.query<{ phoneId: number; level: number }>(
          `select p.id as "phoneId", coalesce(l.level, 0) as level
         from alarm_phones p left join notify_phone_levels l on l.phone_id = p.id
         where ${where.length ? where.join(' and ') : 'true'} order by p.id`,
          params,
        );
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
        const [phone] = await database.query<{
          farm_id: number;
          house_id: number | null;
          phone: string;
        }>('select farm_id, house_id, phone from alarm_phones where id = $1', [v.phoneId]);
        if (!phone) throw new Refusal('notFound', 'http.notFound');
        const house = await checkPlace(database, request, scope, phone.farm_id, phone.house_id);
        await database.query(
          `insert into notify_phone_levels (phone_id, level) values ($1, $2)
         on conflict (phone_id) do update set level = excluded.level`,
          [v.phoneId, v.level],
        );
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
