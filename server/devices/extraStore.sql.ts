import type { Query } from '../db/client';
import type { TrendGranularity } from '../../src/contract/overview';
import type { Reading } from '../ingest/types';

// The extra parameters' hand-written statements: the ingest writer's insert and the daily
// rollup (bulk writes of whole batches through unnest, measured by bench/scale.ts), and the
// trend aggregate, whose bucket source and grouping differ by granularity.

/**
 * Extra parameters' readings, one narrow row each, and what they add to their hour, in one
 * statement. Called by the writer inside the batch's transaction only when a reading carried
 * extra parameters, so a catalogue-only batch costs nothing more. A resent reading is stored
 * once: only rows that were new are added to the hour.
 */
const INSERT_EXTRA = `
with rows as (
  select * from unnest($1::int[], $2::text[], $3::timestamptz[], $4::real[]) as u(house_id, code, ts, value)
), inserted as (
  insert into telemetry_extra (house_id, code, ts, value) select * from rows
  on conflict do nothing returning house_id, code, ts, value
)
insert into telemetry_extra_hourly as h (house_id, code, bucket, min, max, sum, n)
select house_id, code, date_trunc('hour', ts), min(value), max(value), sum(value), count(*)
from inserted group by 1, 2, 3
order by 1, 2, 3 -- writers lock shared hours in one order: no deadlock
on conflict (house_id, code, bucket) do update set min = least(h.min, excluded.min),
  max = greatest(h.max, excluded.max), sum = h.sum + excluded.sum, n = h.n + excluded.n`;

export async function writeExtras(query: Query, readings: readonly Reading[]): Promise<void> {
  const houses: number[] = [];
  const codes: string[] = [];
  const times: string[] = [];
  const values: number[] = [];
  for (const r of readings) {
    if (!r.extraKeys) continue;
    for (const code of r.extraKeys) {
      const value = r.metrics[code];
      if (value === undefined) continue;
      houses.push(r.houseId);
      codes.push(code);
      times.push(r.ts.toISOString());
      values.push(value);
    }
  }
  if (houses.length > 0) await query(INSERT_EXTRA, [houses, codes, times, values]);
}

/**
 * The days of `houses`/`days` (local midnights) recomputed from their hourly rows: called by
 * the daily rollup with the days it rolls for catalogue metrics, so both stay in step.
 */
export async function rollExtraDays(
  query: Query,
  houseIds: number[],
  days: Date[],
  timeZone: string,
): Promise<void> {
  await query(
    `insert into telemetry_extra_daily as x (house_id, code, bucket, min, max, sum, n)
     select d.house_id, h.code, d.day, min(h.min), max(h.max), sum(h.sum), sum(h.n)
     from unnest($1::int[], $2::timestamptz[]) as d(house_id, day)
     join telemetry_extra_hourly h on h.house_id = d.house_id and h.bucket >= d.day
       and h.bucket < ((d.day at time zone $3) + interval '1 day') at time zone $3
     group by d.house_id, h.code, d.day
     on conflict (house_id, code, bucket) do update set min = excluded.min, max = excluded.max,
       sum = excluded.sum, n = excluded.n`,
    [houseIds, days, timeZone],
  );
}

/** One bucket of an extra parameter's trend in one house: its mean, lowest and highest. */
export interface ExtraBucket {
  houseId: number;
  /** The bucket's start. */
  t: Date;
  v: number | null;
  lo: number | null;
  hi: number | null;
}

/**
 * An extra parameter's buckets for several houses, by house and time: minutes from the raw
 * rows, hours and days from their rollups, months from days (in `timeZone`). Hand-written: one
 * aggregate whose source table and grouping change with the granularity.
 */
export async function readExtraBuckets(
  query: Query,
  q: { houseIds: number[]; code: string; from: number; to: number; granularity: TrendGranularity },
  timeZone: string,
): Promise<ExtraBucket[]> {
  const params: unknown[] = [q.houseIds, q.code, new Date(q.from), new Date(q.to)];
  const window = `house_id = any($1::int[]) and code = $2`;
  const sql = {
    minute: `select house_id, date_trunc('minute', ts) as t, avg(value) as v, min(value) as lo,
               max(value) as hi
             from telemetry_extra where ${window} and ts >= $3 and ts < $4 group by 1, 2`,
    hour: `select house_id, bucket as t, sum / nullif(n, 0) as v, min as lo, max as hi
           from telemetry_extra_hourly where ${window} and bucket >= $3 and bucket < $4`,
    day: `select house_id, bucket as t, sum / nullif(n, 0) as v, min as lo, max as hi
          from telemetry_extra_daily where ${window} and bucket >= $3 and bucket < $4`,
    month: `select house_id, (date_trunc('month', bucket at time zone $5) at time zone $5) as t,
              sum(sum) / nullif(sum(n), 0) as v, min(min) as lo, max(max) as hi
            from telemetry_extra_daily where ${window} and bucket >= $3 and bucket < $4 group by 1, 2`,
  }[q.granularity];
  if (q.granularity === 'month') params.push(timeZone);
  const rows = await query<{
    house_id: number;
    t: Date | string;
    v: number | null;
    lo: number | null;
    hi: number | null;
  }>(
    `select house_id, t, v::float8 as v, lo::float8 as lo, hi::float8 as hi
     from (${sql}) b order by house_id, t`,
    params,
  );
  return rows.map((r) => ({ houseId: r.house_id, t: new Date(r.t), v: r.v, lo: r.lo, hi: r.hi }));
}
