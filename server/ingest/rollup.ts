import { METRIC_KEYS } from '../../src/contract/metrics';
import type { Database } from '../db/client';
import { rollExtraDays } from '../devices/extraStore';

/** Dirty hours taken per statement: bounds one transaction's work on the shared thread. */
const DIRTY_PER_PASS = 1_000;

const cols = (suffixes: string[]) => METRIC_KEYS.flatMap((k) => suffixes.map((s) => `"${k}_${s}"`));
const ROLLUP_COLUMNS = cols(['min', 'max', 'sum', 'n']);
const FROM_HOURLY = METRIC_KEYS.flatMap((k) => [
  `min(h."${k}_min")`,
  `max(h."${k}_max")`,
  `sum(h."${k}_sum")`,
  `sum(h."${k}_n")`,
]);
const UPDATE_ALL = ['readings', ...ROLLUP_COLUMNS].map((c) => `${c} = excluded.${c}`).join(', ');

// The days of the hours marked by ingestion are recomputed from their (at most 24) hourly
// rows: exact and idempotent. SKIP LOCKED lets several processes share the work.
const TAKE_DIRTY_DAYS = `
  with d as (
    delete from rollup_dirty where (house_id, hour) in (
      select house_id, hour from rollup_dirty order by hour limit ${DIRTY_PER_PASS} for update skip locked
    ) returning house_id, hour
  )
  select distinct house_id, (date_trunc('day', hour at time zone $1) at time zone $1) as day,
    (select count(*)::int from d) as taken
  from d`;

const ROLL_DAYS = `
  insert into telemetry_daily (house_id, bucket, readings, ${ROLLUP_COLUMNS.join(', ')})
  select d.house_id, d.day, sum(h.readings), ${FROM_HOURLY.join(', ')}
  from unnest($1::int[], $2::timestamptz[]) as d(house_id, day)
  join telemetry_hourly h on h.house_id = d.house_id and h.bucket >= d.day
    and h.bucket < ((d.day at time zone $3) + interval '1 day') at time zone $3
  group by d.house_id, d.day
  on conflict (house_id, bucket) do update set ${UPDATE_ALL}`;

/**
 * Brings the daily rollups of the hours marked dirty by ingestion up to date. Runs off the hot
 * path (a timer); a pass that took a full slice is followed by another, a partial one ends the
 * run (hours marked meanwhile wait for the next tick). Answers how many days it rolled up.
 */
export async function rollUp(database: Database, timeZone: string): Promise<number> {
  let total = 0;
  for (;;) {
    const { days, taken } = await database.transaction(async ({ query }) => {
      const marked = await query<{ house_id: number; day: Date; taken: number }>(TAKE_DIRTY_DAYS, [
        timeZone,
      ]);
      if (marked.length > 0) {
        await query(ROLL_DAYS, [marked.map((d) => d.house_id), marked.map((d) => d.day), timeZone]);
        await rollExtraDays(
          query,
          marked.map((d) => d.house_id),
          marked.map((d) => d.day),
          timeZone,
        );
      }
      return { days: marked.length, taken: marked[0]?.taken ?? 0 };
    });
    total += days;
    if (taken < DIRTY_PER_PASS) return total;
  }
}

/** Raw rows older than the retention are deleted in slices, so no single delete stalls ingestion. */
const DELETE_SLICE = 20_000;

export async function deleteOldRaw(database: Database, retentionDays: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await database.query<{ n: number }>(
      `with gone as (
         delete from telemetry where ctid in (
           select ctid from telemetry where ts < now() - make_interval(days => $1) limit ${DELETE_SLICE}
         ) returning 1
       ) select count(*)::int as n from gone`,
      [retentionDays],
    );
    const n = rows[0]?.n ?? 0;
    deleted += n;
    if (n < DELETE_SLICE) return deleted;
  }
}
