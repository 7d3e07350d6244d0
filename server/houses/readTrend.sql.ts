import { MAX_TREND_POINTS, type Trend, type TrendGranularity } from '../../src/contract/overview';
import { METRIC_BY_KEY } from '../../src/contract/metrics';
import type { Database } from '../db/client';
import { Refusal } from '../refusal';
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

export interface HouseTrendQuery {
  houseId: number;
  metrics: string[];
  from: number;
  to: number;
  granularity: TrendGranularity;
}

/**
 * A house's trend from the rollups (raw rows only for minutes, which raw retention bounds):
 * a 90-day hourly trend reads ~2,160 rows, never 90 days of raw readings.
 */
export async function readTrend(
  database: Database,
  query: HouseTrendQuery,
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
    if (!METRIC_BY_KEY.has(m)) throw new Refusal('invalid', 'trend.unknownMetric', { metric: m });
  const points = Math.ceil((query.to - query.from) / BUCKET_MS[query.granularity]);
  if (points > MAX_TREND_POINTS)
    throw new Refusal('unprocessable', 'trend.tooManyPoints', { points, max: MAX_TREND_POINTS });
  if (query.houseIds.length === 0) return [];

  const parts = ALL_PARTS.filter((p) => (query.parts ?? ALL_PARTS).includes(p));
  const params: unknown[] = [query.houseIds, new Date(query.from), new Date(query.to)];
  const inner = innerQuery(query.metrics, parts, query.granularity, params, timeZone);
  const real = (metric: string, p: TrendPart) => REAL[query.granularity][p](metric);
  // Each column as its values' bytes (float8send, float4send: exact, no decimal text to write
  // or parse), a null as a signalling NaN no arithmetic produces.
  const columns = [
    `string_agg(float8send((extract(epoch from t) * 1000)::bigint::float8), '')`,
    ...query.metrics.flatMap((m, i) =>
      parts.map((p) =>
        real(m, p)
          ? `string_agg(coalesce(float4send(${PART_PREFIX[p]}${i}), '\\x${REAL_NULL.toString(16)}'), '')`
          : `string_agg(coalesce(float8send(${PART_PREFIX[p]}${i}), '\\x${DOUBLE_NULL_HIGH.toString(16)}${DOUBLE_NULL_LOW.toString(16).padStart(8, '0')}'), '')`,
      ),
    ),
  ];
  // The aggregates read their subquery's order: nothing (no join, no grouping) sits between.
  const rows = await database.query<{ n: number; b: string | null }>(
    `select r.n, r.b from unnest($1::int[]) with ordinality h(id, o)
     cross join lateral (
       select count(*)::int as n, encode(${columns.join(' || ')}, 'base64') as b
       from (${inner} order by t) q
     ) r order by h.o`.replace(/\s+/g, ' '),
    params,
  );
  return query.houseIds.map((houseId, house) => {
    const n = rows[house]?.n ?? 0;
    // base64 with PostgreSQL's line breaks, which Buffer skips.
    const bytes = Buffer.from(rows[house]?.b ?? '', 'base64');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const times = new Array<number>(n);
    for (let i = 0; i < n; i += 1) times[i] = view.getFloat64(8 * i);
    let offset = 8 * n;
    const series: Trend['series'] = {};
    for (const metric of query.metrics) {
      const s = { avg: [], min: [], max: [] } as Trend['series'][string];
      for (const p of parts) {
        const isReal = real(metric, p);
        s[p] = (isReal ? readReals : readDoubles)(view, offset, n);
        offset += (isReal ? 4 : 8) * n;
      }
      series[metric] = s;
    }
    return { houseId, granularity: query.granularity, times, series };
  });
}

/** A null `real`, `double precision`: signalling NaNs (arithmetic only makes quiet ones). */
const REAL_NULL = 0x7f80beef;
const DOUBLE_NULL_HIGH = 0x7ff0dead;
const DOUBLE_NULL_LOW = 0x0000beef;

/** `n` doubles from `offset`, rounded as `round(x::numeric, 3)`; nulls stay null. */
function readDoubles(view: DataView, offset: number, n: number): Array<number | null> {
  const out = new Array<number | null>(n);
  for (let i = 0, at = offset; i < n; i += 1, at += 8)
    out[i] =
      view.getUint32(at) === DOUBLE_NULL_HIGH && view.getUint32(at + 4) === DOUBLE_NULL_LOW
        ? null
        : roundDouble(view.getFloat64(at));
  return out;
}

/** `n` reals from `offset`, rounded as `round(x::numeric, 3)`; nulls stay null. */
function readReals(view: DataView, offset: number, n: number): Array<number | null> {
  const out = new Array<number | null>(n);
  for (let i = 0, at = offset; i < n; i += 1, at += 4)
    out[i] = view.getUint32(at) === REAL_NULL ? null : roundReal(view.getFloat32(at));
  return out;
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
