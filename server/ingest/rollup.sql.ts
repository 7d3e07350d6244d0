import { METRIC_KEYS } from '../../src/contract/metrics';
import type { Database, Query } from '../db/client';

/*
 * The rollup's and the raw retention's statements: hand-written because each works on a slice
 * of rows in one statement (a delete that answers what it took, SKIP LOCKED, an aggregate
 * insert over every metric's four columns, a delete by ctid) that a query builder would not
 * express, and they run over the whole telemetry table off the hot path.
 */

/** Dirty hours taken per statement: bounds one transaction's work on the shared thread. */
export const DIRTY_PER_PASS = 1_000;

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

/** A day of a house whose hours were marked dirty, and how many marks the pass took. */
export interface DirtyDay {
  houseId: number;
  /** Midnight of the day in the installation's time zone. */
  day: Date;
  /** Hours taken off rollup_dirty by this pass (the same on every row). */
  taken: number;
}

/** Takes up to DIRTY_PER_PASS dirty hours off rollup_dirty and answers their days. */
export async function takeDirtyDays(query: Query, timeZone: string): Promise<DirtyDay[]> {
  const rows = await query<{ house_id: number; day: Date; taken: number }>(TAKE_DIRTY_DAYS, [
    timeZone,
  ]);
  return rows.map((r) => ({ houseId: r.house_id, day: r.day, taken: r.taken }));
}

/** Recomputes the daily rollups of these days (houseIds[i] with days[i]) from their hours. */
export async function rollDays(
  query: Query,
  houseIds: number[],
  days: Date[],
  timeZone: string,
): Promise<void> {
  await query(ROLL_DAYS, [houseIds, days, timeZone]);
}

/** Raw rows older than the retention are deleted in slices, so no single delete stalls ingestion. */
export const DELETE_SLICE = 20_000;

/** Deletes one slice of raw rows older than `retentionDays`; answers how many went. */
export async function deleteOldRawSlice(
  database: Database,
  retentionDays: number,
): Promise<number> {
  const rows = await database.query<{ n: number }>(
    `with gone as (
       delete from telemetry where ctid in (
         select ctid from telemetry where ts < now() - make_interval(days => $1) limit ${DELETE_SLICE}
       ) returning 1
     ) select count(*)::int as n from gone`,
    [retentionDays],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Makes the space of deleted raw rows reusable and refreshes the planner's statistics: the
 * embedded database has no autovacuum (retention.ts). Not FULL: it takes no lock that blocks
 * inserts.
 */
export async function vacuumRaw(database: Database): Promise<void> {
  await database.query('vacuum (analyze) telemetry');
}
