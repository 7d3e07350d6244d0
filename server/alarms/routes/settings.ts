import { z } from 'zod';
import { idSchema, jsonIdSchema } from '../../../src/contract/ids';
import {
  alarmPlaceSchema,
  houseAlarmLimitsSchema,
  type AlarmPlace,
} from '../../../src/contract/alarms';
import { canSeeHouse } from '../../auth/scope';
import type { AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { scopeWhere } from '../access';
import { parseJson } from '../../db/jsonColumn';
import { settingsContext } from './settingsShared';

const limitsQuery = z.object({ houseId: idSchema });
const limitsBody = z.object({
  houseId: jsonIdSchema,
  limits: houseAlarmLimitsSchema,
});

/**
 * Alarm settings: the places the forms offer, house limits, and the alarm phone and
 * alarm input routes (one module each); changes need canOperate.
 */
export function settingsRoutes(ctx: AppContext): RoutePlugin {
  const { database, scopeFor, log } = settingsContext(ctx);
  return async (app) => {
    /** The choices of the settings forms and filters. */
    app.get(
      '/alarm/places',
      {
        schema: {
          summary: 'The houses in your scope with their farm and gateway',
          response: answers(z.array(alarmPlaceSchema)),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const params: unknown[] = [];
        const rows = await database.query<AlarmPlace>(
          `select h.id as "houseId", h.name as "houseName", f.id as "farmId", f.name as "farmName",
           g.id as "gatewayId", g.network_id as "networkId"
         from houses h join farms f on f.id = h.farm_id left join gateways g on g.house_id = h.id
         where ${scopeWhere(await scopeFor(request), params, 'h.id')} order by f.name, h.sort, h.id`,
          params,
        );
        return ok(request, reply, rows);
      },
    );

    app.get(
      '/alarm/limits',
      {
        schema: {
          summary: "A house's own alarm limits (a limit not set falls back to the breed's target)",
          querystring: limitsQuery,
          response: answers(houseAlarmLimitsSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { houseId } = request.query;
        if (!canSeeHouse(await scopeFor(request), houseId))
          throw new ApiError(404, 'http.notFound');
        const [row] = await database.query<{ limits: unknown }>(
          'select limits from alarm_limits where house_id = $1',
          [houseId],
        );
        return ok(request, reply, row ? parseJson(row.limits) : {});
      },
    );

    app.put(
      '/alarm/limits',
      {
        schema: {
          summary: "Sets a house's own alarm limits",
          body: limitsBody,
          response: answers(houseAlarmLimitsSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const v = request.body;
        // The house must exist before anything is written: an administrator's scope holds
        // every id, and the insert of a missing one failed on its foreign key with a 500.
        const [house] = await database.query<{ id: number; name: string }>(
          'select id, name from houses where id = $1',
          [v.houseId],
        );
        if (!house || !canSeeHouse(await scopeFor(request), v.houseId))
          throw new ApiError(404, 'http.notFound');
        await database.query(
          `insert into alarm_limits (house_id, limits) values ($1, $2::jsonb)
         on conflict (house_id) do update set limits = excluded.limits, updated_at = now()`,
          [v.houseId, JSON.stringify(v.limits)],
        );
        await log(
          request,
          'alarm.limits',
          { key: 'alarmLimits', params: { value: JSON.stringify(v.limits) } },
          house,
        );
        void ctx.events.emit('alarmRulesChanged', v.houseId);
        return ok(request, reply, v.limits, 'alarms.saved');
      },
    );
  };
}
