import { and, asc, between, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  extraTrendQuerySchema,
  extraTrendSchema,
  type ExtraTrend,
} from '../../../src/contract/devices';
import { telemetryExtra, telemetryExtraHourly as hourly } from '../../db/devicesSchema';
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
        const from = new Date(q.from);
        const to = new Date(q.to);
        const epochMs = (column: AnyPgColumn) =>
          sql<number>`(extract(epoch from ${column}) * 1000)::float8`.mapWith(Number);
        const raw = q.to - q.from <= DAY_MS;
        const rows = raw
          ? await database.db
              .select({
                code: telemetryExtra.code,
                t: epochMs(telemetryExtra.ts),
                v: telemetryExtra.value,
              })
              .from(telemetryExtra)
              .where(
                and(eq(telemetryExtra.houseId, q.houseId), between(telemetryExtra.ts, from, to)),
              )
              .orderBy(asc(telemetryExtra.ts))
          : await database.db
              .select({
                code: hourly.code,
                t: epochMs(hourly.bucket),
                v: sql<number>`(${hourly.sum} / ${hourly.n})::float8`.mapWith(Number),
              })
              .from(hourly)
              .where(and(eq(hourly.houseId, q.houseId), between(hourly.bucket, from, to)))
              .orderBy(asc(hourly.bucket));
        const byCode = new Map<string, Array<{ t: number; v: number }>>();
        for (const r of rows) {
          const list = byCode.get(r.code) ?? [];
          list.push({ t: r.t, v: r.v });
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
