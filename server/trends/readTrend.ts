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
  const counter = (m: string) => METRIC_BY_KEY.get(m)?.kind === 'counter';
  let sql: string;
  if (query.granularity === 'minute') {
    const aggs = query.metrics.map(
      (m, i) =>
        `${counter(m) ? 'sum' : 'avg'}("${m}") as a${i}, min("${m}") as n${i}, max("${m}") as x${i}`,
    );
    sql = `select date_trunc('minute', ts) as t, ${aggs.join(', ')} from telemetry
           where house_id = $1 and ts >= $2 and ts < $3 group by 1 order by 1`;
  } else {
    const table = query.granularity === 'hour' ? 'telemetry_hourly' : 'telemetry_daily';
    const bucket =
      query.granularity === 'month'
        ? `(date_trunc('month', bucket at time zone $4) at time zone $4)`
        : 'bucket';
    const aggs = query.metrics.map(
      (m, i) =>
        `${counter(m) ? `sum("${m}_sum")` : `sum("${m}_sum") / nullif(sum("${m}_n"), 0)`} as a${i}, min("${m}_min") as n${i}, max("${m}_max") as x${i}`,
    );
    sql = `select ${bucket} as t, ${aggs.join(', ')} from ${table}
           where house_id = $1 and bucket >= $2 and bucket < $3 group by 1 order by 1`;
  }
  const params: unknown[] = [query.houseId, from, to];
  if (query.granularity === 'month') params.push(timeZone);
  const rows = await database.query<Record<string, unknown>>(sql.replace(/\s+/g, ' '), params);

  const series: Trend['series'] = {};
  for (const m of query.metrics) series[m] = { avg: [], min: [], max: [] };
  const times: number[] = [];
  for (const row of rows) {
    times.push(new Date(row.t as string | Date).getTime());
    query.metrics.forEach((m, i) => {
      const s = series[m]!;
      s.avg.push(round(row[`a${i}`]));
      s.min.push(round(row[`n${i}`]));
      s.max.push(round(row[`x${i}`]));
    });
  }
  return { houseId: query.houseId, granularity: query.granularity, times, series };
}

/** Rollup sums are doubles: three decimals are more than any sensor resolves. */
function round(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return Math.round(Number(value) * 1000) / 1000;
}
