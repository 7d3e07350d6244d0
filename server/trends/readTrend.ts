import { MAX_TREND_POINTS, type Trend, type TrendGranularity } from '../../src/contract/overview';
import { METRIC_BY_KEY } from '../../src/contract/metrics';
import type { Database } from '../db/client';
import { ApiError } from '../http/errors';
import { roundDouble, roundReal } from './roundLikeNumeric';

const BUCKET_MS: Record<TrendGranularity, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  month: 30 * 86_400_000,
};

/** The series a trend carries per metric: a (avg or total), n (min), x (max). */
export type TrendPart = 'avg' | 'min' | 'max';
const PART_PREFIX: Record<TrendPart, string> = { avg: 'a', min: 'n', max: 'x' };
const ALL_PARTS: TrendPart[] = ['avg', 'min', 'max'];

/**
 * A house's trend from the rollups (raw rows only for minutes, which raw retention bounds):
 * a 90-day hourly trend reads ~2,160 rows, never 90 days of raw readings.
 */
export async function readTrend(
  database: Database,
  query: {
    houseId: number;
    metrics: string[];
    from: number;
    to: number;
    granularity: TrendGranularity;
  },
  timeZone: string,
): Promise<Trend> {
  const [trend] = await readTrends(database, { ...query, houseIds: [query.houseId] }, timeZone);
  return trend!;
}

/**
 * The trends of several houses in one statement, in the order of `houseIds`; `parts` leaves out
 * the series a caller does not show (a comparison shows averages only), which are then empty.
 *
 * Each house's buckets are aggregated into one array per column (PGlite decodes a 2,160 × 19
 * result row by row in ~100 ms but parses one JSON value in a few) from a subquery ordered by
 * the primary key, so no aggregate sorts. The values leave the database as floats and are
 * rounded here exactly as `round(x::numeric, 3)` would (roundLikeNumeric.ts): that conversion
 * was over half of the statement's time.
 */
export async function readTrends(
  database: Database,
  query: {
    houseIds: number[];
    metrics: string[];
    from: number;
    to: number;
    granularity: TrendGranularity;
    parts?: TrendPart[];
  },
  timeZone: string,
): Promise<Trend[]> {
  for (const m of query.metrics)
    if (!METRIC_BY_KEY.has(m)) throw new ApiError(400, 'trend.unknownMetric', { metric: m });
  const points = Math.ceil((query.to - query.from) / BUCKET_MS[query.granularity]);
  if (points > MAX_TREND_POINTS)
    throw new ApiError(422, 'trend.tooManyPoints', { points, max: MAX_TREND_POINTS });
  if (query.houseIds.length === 0) return [];

  const parts = ALL_PARTS.filter((p) => (query.parts ?? ALL_PARTS).includes(p));
  const params: unknown[] = [query.houseIds, new Date(query.from), new Date(query.to)];
  const inner = innerQuery(query.metrics, parts, query.granularity, params, timeZone);
  const columns = [
    `coalesce(array_agg((extract(epoch from t) * 1000)::bigint), '{}')`,
    ...query.metrics.flatMap((_, i) =>
      parts.map((p) => `coalesce(array_agg(${PART_PREFIX[p]}${i}), '{}')`),
    ),
  ];
  // The aggregate reads its subquery's order: nothing (no join, no grouping) sits between.
  const rows = await database.query<{ j: string }>(
    `select r.j from unnest($1::int[]) with ordinality h(id, o)
     cross join lateral (
       select json_build_array(${columns.join(', ')})::text as j
       from (${inner} order by t) q
     ) r order by h.o`.replace(/\s+/g, ' '),
    params,
  );
  return query.houseIds.map((houseId, house) => {
    const arrays = JSON.parse(rows[house]?.j ?? '[]') as Array<Array<number | null>>;
    let column = 1;
    const series: Trend['series'] = {};
    for (const metric of query.metrics) {
      const s = { avg: [], min: [], max: [] } as Trend['series'][string];
      for (const p of parts) {
        s[p] = rounded(arrays[column] ?? [], REAL[query.granularity][p](metric));
        column += 1;
      }
      series[metric] = s;
    }
    return {
      houseId,
      granularity: query.granularity,
      times: (arrays[0] ?? []) as number[],
      series,
    };
  });
}

const isCounter = (m: string) => METRIC_BY_KEY.get(m)?.kind === 'counter';

/**
 * Whether a column of `innerQuery` is `real` (float4) rather than `double precision`: min and
 * max always are (they are `real` columns); a minute's total too (`sum(real)` is real).
 */
const REAL: Record<TrendGranularity, Record<TrendPart, (metric: string) => boolean>> = {
  minute: { avg: isCounter, min: () => true, max: () => true },
  hour: { avg: () => false, min: () => true, max: () => true },
  day: { avg: () => false, min: () => true, max: () => true },
  month: { avg: () => false, min: () => true, max: () => true },
};

/** Rounded to 3 decimals, as `round(x::numeric, 3)`: nulls stay null. */
function rounded(values: Array<number | null>, real: boolean): Array<number | null> {
  const round = real ? roundReal : roundDouble;
  const out = new Array<number | null>(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    out[i] = v === null || v === undefined ? null : round(v);
  }
  return out;
}

/**
 * One row per bucket of house `h.id`: t, then a (a level's mean, a counter's total), n (min)
 * and x (max) per metric, those of `parts`. Hours and days are rollup rows as stored; minutes
 * come from raw rows, months from days.
 */
function innerQuery(
  metrics: string[],
  parts: TrendPart[],
  granularity: TrendGranularity,
  params: unknown[],
  timeZone: string,
): string {
  const select = (i: number, exprs: Record<TrendPart, string>) =>
    parts.map((p) => `${exprs[p]} as ${PART_PREFIX[p]}${i}`).join(', ');
  if (granularity === 'minute') {
    const aggs = metrics.map((m, i) =>
      select(i, {
        avg: `${isCounter(m) ? 'sum' : 'avg'}("${m}")`,
        min: `min("${m}")`,
        max: `max("${m}")`,
      }),
    );
    return `select date_trunc('minute', ts) as t, ${aggs.join(', ')} from telemetry
            where house_id = h.id and ts >= $2 and ts < $3 group by 1`;
  }
  if (granularity === 'month') {
    const zone = `$${params.push(timeZone)}`;
    const aggs = metrics.map((m, i) =>
      select(i, {
        avg: isCounter(m) ? `sum("${m}_sum")` : `sum("${m}_sum") / nullif(sum("${m}_n"), 0)`,
        min: `min("${m}_min")`,
        max: `max("${m}_max")`,
      }),
    );
    return `select (date_trunc('month', bucket at time zone ${zone}) at time zone ${zone}) as t, ${aggs.join(', ')}
            from telemetry_daily where house_id = h.id and bucket >= $2 and bucket < $3 group by 1`;
  }
  const table = granularity === 'hour' ? 'telemetry_hourly' : 'telemetry_daily';
  const cols = metrics.map((m, i) =>
    select(i, {
      avg: isCounter(m) ? `"${m}_sum"` : `"${m}_sum" / nullif("${m}_n", 0)`,
      min: `"${m}_min"`,
      max: `"${m}_max"`,
    }),
  );
  return `select bucket as t, ${cols.join(', ')} from ${table} where house_id = h.id and bucket >= $2 and bucket < $3`;
}
