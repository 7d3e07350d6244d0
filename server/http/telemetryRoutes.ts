import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  overviewQuerySchema,
  trendQuerySchema,
  type HouseOverview,
} from '../../src/contract/overview';
import { canSeeHouse, scopeOf } from '../auth/scope';
import { presentLive } from '../live/presenter';
import { STATE_COLUMNS, stateFromRow, type StateRow } from '../ingest/writer';
import { readTrend } from '../trends/readTrend';
import { sessionOf, tokenOf, type AppContext } from './context';
import { envelope, localeOf, ok, parseInput } from './envelope';
import { ApiError } from './errors';
import { translate } from './messages';

const networkIdParams = z.object({ networkId: z.string().min(1).max(64) });

interface OverviewRow extends StateRow {
  house_name: string;
  farm_id: number;
  farm_name: string;
  province_name: string | null;
  network_id: string | null;
  type_key: number | null;
  breed_name: string | null;
  age_days: number | null;
  head_count: number | null;
  has_state: boolean;
}

export function telemetryRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database } = ctx;
  return async (app) => {
    /** Gateways without MQTT post here with `Authorization: Bearer <device token>`. */
    app.post('/ingest/:networkId', { config: { public: true } }, async (request, reply) => {
      const { networkId } = parseInput(networkIdParams, request.params);
      const gateway = await ctx.ingest.directory.verifyToken(networkId, tokenOf(request) ?? '');
      if (!gateway) {
        ctx.ingest.counters.reject('badToken');
        throw new ApiError(401, 'ingest.badToken');
      }
      const result = await ctx.ingest.submitTelemetry(networkId, request.body, gateway);
      if (result.status === 'rejected') {
        const msg = translate('ingest.rejected', localeOf(request), {
          reason: result.reason,
          detail: result.detail,
        });
        return reply.code(422).send(envelope(422, msg, { reason: result.reason }));
      }
      return ok(
        request,
        reply,
        { status: result.status },
        result.status === 'stored' ? 'ingest.stored' : 'ingest.duplicate',
      );
    });

    app.get('/ingest/stats', async (request, reply) => {
      if (sessionOf(request).user.roleKey !== 'administrator')
        throw new ApiError(403, 'auth.forbidden');
      return ok(request, reply, ctx.ingest.counters.snapshot());
    });

    app.get('/overview/listOverview/', async (request, reply) => {
      const query = parseInput(overviewQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      const params: unknown[] = [
        ctx.config.timeZone,
        scope.all,
        scope.all ? [] : [...scope.houseIds],
      ];
      let where = '($2 or h.id = any($3::int[]))';
      if (query.farmId) where += ` and f.id = $${params.push(query.farmId)}`;
      if (query.houseId) where += ` and h.id = $${params.push(query.houseId)}`;
      // One json_agg text value, not 5,000 rows: PGlite's per-row, per-column decoding (dates,
      // jsonb) and the worker's structured clone cost 2-3 times the query itself, and every
      // other query (each request's session check) waits behind it in the one worker.
      const [result] = await database.query<{ rows: string }>(
        `select coalesce(json_agg(x order by x.farm_name, x.sort, x.house_id), '[]')::text as rows
         from (
           select h.id as house_id, h.name as house_name, h.sort, f.id as farm_id, f.name as farm_name,
             f.province_name, g.network_id, g.type_key, b.name as breed_name, fl.head_count,
             ((now() at time zone $1)::date - fl.placed_on + fl.age_at_placement) as age_days,
             (hs.house_id is not null) as has_state,
             ${STATE_COLUMNS.split(', ')
               .filter((c) => c !== 'house_id')
               .map((c) => `hs.${c}`)
               .join(', ')}
           from houses h
           join farms f on f.id = h.farm_id
           left join gateways g on g.house_id = h.id
           left join flocks fl on fl.house_id = h.id and fl.closed_on is null
           left join breeds b on b.id = fl.breed_id
           left join house_state hs on hs.house_id = h.id
           where ${where}
         ) x`,
        params,
      );
      const rows = JSON.parse(result?.rows ?? '[]') as OverviewRow[];
      const data: HouseOverview[] = rows.map((row) => ({
        houseId: row.house_id,
        houseName: row.house_name,
        farmId: row.farm_id,
        farmName: row.farm_name,
        provinceName: row.province_name,
        networkId: row.network_id,
        gatewayType: row.type_key,
        breedName: row.breed_name,
        ageDays: row.age_days === null ? null : Number(row.age_days),
        headCount: row.head_count,
        live: presentLive(
          stateFromRow(
            row.has_state
              ? row
              : {
                  ...row,
                  online: false,
                  metrics: {},
                  faults: {},
                  devices: {},
                  network: null,
                  gateway_version: null,
                  online_since: null,
                  last_seen_at: null,
                  last_ts: null,
                  mode: null,
                  alarm_count: 0,
                  alarm_top: null,
                },
            row.farm_id,
          ),
        ),
      }));
      return ok(request, reply, { rows: data, total: data.length });
    });

    app.get('/trend/house', async (request, reply) => {
      const query = parseInput(trendQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      // Outside the scope looks the same as not existing.
      if (!canSeeHouse(scope, query.houseId)) throw new ApiError(404, 'http.notFound');
      return ok(request, reply, await readTrend(database, query, ctx.config.timeZone));
    });
  };
}
