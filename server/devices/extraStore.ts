import type { Database, Query } from '../db/client';
import { MAX_TREND_POINTS, type TrendGranularity } from '../../src/contract/overview';
import { Refusal } from '../refusal';

/** A trend's bucket widths, as the catalogue's trends count them (a month as 30 days). */
const TREND_BUCKET_MS: Record<TrendGranularity, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  month: 30 * 86_400_000,
};
import type { Reading } from '../ingest/types';

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

/** Whether `code` is an extra parameter of a device in any of the houses. */
export async function isExtraOf(
  database: Database,
  houseIds: number[],
  code: string,
): Promise<boolean> {
  const rows = await database.query(
    `select 1 from terminal_devices where house_id = any($1::int[])
     and extras @> jsonb_build_array(jsonb_build_object('code', $2::text)) limit 1`,
    [houseIds, code],
  );
  return rows.length > 0;
}

const round3 = (v: number | null) => (v === null ? null : Math.round(Number(v) * 1000) / 1000);

/**
 * An extra parameter's mean, lowest and highest per bucket for several houses, in the shape of the catalogue's
 * trends: minutes from the raw rows, hours and days from their rollups, months from days.
 */
export async function readExtraTrends(
  database: Database,
  q: { houseIds: number[]; code: string; from: number; to: number; granularity: TrendGranularity },
  timeZone: string,
) {
  const points = Math.ceil((q.to - q.from) / TREND_BUCKET_MS[q.granularity]);
  if (points > MAX_TREND_POINTS)
    throw new Refusal('unprocessable', 'trend.tooManyPoints', { points, max: MAX_TREND_POINTS });
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
  const rows = await database.query<{
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
  return q.houseIds.map((houseId) => {
    const mine = rows.filter((r) => r.house_id === houseId);
    return {
      houseId,
      granularity: q.granularity,
      times: mine.map((r) => new Date(r.t).getTime()),
      series: {
        [q.code]: {
          avg: mine.map((r) => round3(r.v)),
          min: mine.map((r) => round3(r.lo)),
          max: mine.map((r) => round3(r.hi)),
        },
      },
    };
  });
}

/** A house's extra parameters, in the order of its devices and their lists. */
export async function extrasOfHouse(
  database: Database,
  houseId: number,
): Promise<Array<{ code: string; name: string; unit: string; deviceName: string }>> {
  const rows = await database.query<{ device: string; code: string; name: string; unit: string }>(
    `select d.name as device, e.x->>'code' as code, e.x->>'name' as name,
       coalesce(e.x->>'unit', '') as unit
     from terminal_devices d cross join lateral jsonb_array_elements(d.extras) with ordinality e(x, o)
     where d.house_id = $1 order by d.id, e.o`,
    [houseId],
  );
  return rows.map((r) => ({ code: r.code, name: r.name, unit: r.unit, deviceName: r.device }));
}
