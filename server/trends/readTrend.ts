import { MAX_TREND_POINTS, type Trend, type TrendGranularity } from '../../src/contract/overview';
import { METRIC_BY_KEY } from '../../src/contract/metrics';
import type { Database } from '../db/client';
import { ApiError } from '../http/errors';

const BUCKET_MS: Record<TrendGranularity, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  month: 30 * 86_400_000,
};

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
  for (const m of query.metrics)
    if (!METRIC_BY_KEY.has(m)) throw new ApiError(400, 'trend.unknownMetric', { metric: m });
  const points = Math.ceil((query.to - query.from) / BUCKET_MS[query.granularity]);
  if (points > MAX_TREND_POINTS)
    throw new ApiError(422, 'trend.tooManyPoints', { points, max: MAX_TREND_POINTS });

  const from = new Date(query.from);
  const to = new Date(query.to);
  const params: unknown[] = [query.houseId, from, to];
  const inner = innerQuery(query.metrics, query.granularity, params, timeZone);
  // One JSON value with one array per column: PGlite decodes a 2,160 × 19 result row by row
  // in ~100 ms, but parses this in a few (measured: p50 245 → 25 ms under load).
  const round = (c: string) => `round((${c})::numeric, 3)`;
  const arrays = [
    `'t', coalesce(json_agg((extract(epoch from t) * 1000)::bigint order by t), '[]')`,
    ...query.metrics.flatMap((_, i) =>
      ['a', 'n', 'x'].map(
        (p) => `'${p}${i}', coalesce(json_agg(${round(`${p}${i}`)} order by t), '[]')`,
      ),
    ),
  ];
  const [row] = await database.query<{ j: string }>(
    `select json_build_object(${arrays.join(', ')})::text as j from (${inner}) q`.replace(
      /\s+/g,
      ' ',
    ),
    params,
  );
  const columns = JSON.parse(row?.j ?? '{}') as Record<string, Array<number | null>>;
  const series: Trend['series'] = {};
  query.metrics.forEach((m, i) => {
    series[m] = {
      avg: columns[`a${i}`] ?? [],
      min: columns[`n${i}`] ?? [],
      max: columns[`x${i}`] ?? [],
    };
  });
  return {
    houseId: query.houseId,
    granularity: query.granularity,
    times: (columns.t ?? []) as number[],
    series,
  };
}

/**
 * One row per bucket: t, then a (a level's mean, a counter's total), n (min) and x (max) per
 * metric. Hours and days are rollup rows as stored; minutes come from raw rows, months from days.
 */
function innerQuery(
  metrics: string[],
  granularity: TrendGranularity,
  params: unknown[],
  timeZone: string,
): string {
  const counter = (m: string) => METRIC_BY_KEY.get(m)?.kind === 'counter';
  if (granularity === 'minute') {
    const aggs = metrics.map(
      (m, i) =>
        `${counter(m) ? 'sum' : 'avg'}("${m}") as a${i}, min("${m}") as n${i}, max("${m}") as x${i}`,
    );
    return `select date_trunc('minute', ts) as t, ${aggs.join(', ')} from telemetry
            where house_id = $1 and ts >= $2 and ts < $3 group by 1`;
  }
  if (granularity === 'month') {
    const zone = `$${params.push(timeZone)}`;
    const aggs = metrics.map(
      (m, i) =>
        `${counter(m) ? `sum("${m}_sum")` : `sum("${m}_sum") / nullif(sum("${m}_n"), 0)`} as a${i}, min("${m}_min") as n${i}, max("${m}_max") as x${i}`,
    );
    return `select (date_trunc('month', bucket at time zone ${zone}) at time zone ${zone}) as t, ${aggs.join(', ')}
            from telemetry_daily where house_id = $1 and bucket >= $2 and bucket < $3 group by 1`;
  }
  const table = granularity === 'hour' ? 'telemetry_hourly' : 'telemetry_daily';
  const cols = metrics.map(
    (m, i) =>
      `${counter(m) ? `"${m}_sum"` : `"${m}_sum" / nullif("${m}_n", 0)`} as a${i}, "${m}_min" as n${i}, "${m}_max" as x${i}`,
  );
  return `select bucket as t, ${cols.join(', ')} from ${table} where house_id = $1 and bucket >= $2 and bucket < $3`;
}
