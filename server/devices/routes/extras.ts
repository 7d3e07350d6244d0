import {
  extraTrendQuerySchema,
  extraTrendSchema,
  type ExtraTrend,
} from '../../../src/contract/devices';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import type { DeviceContext } from '../access';
import { readTerminals } from '../equipment';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A longer window reads hourly averages: a week of hours is 168 points a parameter. */
const MAX_WINDOW_MS = 7 * DAY_MS;

/** The readings of a house's extra parameters, for the monitor's charts. */
export function extraRoutes(dc: DeviceContext): RoutePlugin {
  const { database, scopeFor, houseIn } = dc;
  return async (app) => {
    app.get(
      '/device/extraTrend',
      {
        schema: {
          summary: "The readings of a house's extra parameters over at most 7 days",
          querystring: extraTrendQuerySchema,
          response: answers(extraTrendSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        if (q.to < q.from || q.to - q.from > MAX_WINDOW_MS)
          throw new Refusal('invalid', 'http.badRequest');
        const scope = await scopeFor(request);
        await houseIn(scope, q.houseId);
        const devices = await readTerminals(database, scope, { houseId: q.houseId });
        const raw = q.to - q.from <= DAY_MS;
        const rows = await database.query<{ code: string; t: number; v: number }>(
          raw
            ? `select code, (extract(epoch from ts) * 1000)::float8 as t, value as v from telemetry_extra
             where house_id = $1 and ts between $2 and $3 order by ts`
            : `select code, (extract(epoch from bucket) * 1000)::float8 as t, (sum / n)::float8 as v
             from telemetry_extra_hourly where house_id = $1 and bucket between $2 and $3 order by bucket`,
          [q.houseId, new Date(q.from).toISOString(), new Date(q.to).toISOString()],
        );
        const byCode = new Map<string, Array<{ t: number; v: number }>>();
        for (const r of rows) {
          const list = byCode.get(r.code) ?? [];
          list.push({ t: Number(r.t), v: Number(r.v) });
          byCode.set(r.code, list);
        }
        const data: ExtraTrend = {
          series: devices.flatMap((d) =>
            d.extras.map((e) => ({
              code: e.code,
              name: e.name,
              unit: e.unit,
              deviceName: d.name,
              points: byCode.get(e.code) ?? [],
            })),
          ),
        };
        return ok(request, reply, data);
      },
    );
  };
}
