import { METRIC_KEYS } from '../../../src/contract/metrics';
import type { Database, Query } from '../../db/client';
import { arrayLiteral } from '../../db/arrayLiteral';
import type { DemoDay } from './dailyRecords';
import type { Bucket, HouseHistory, HouseIds } from './generate';

/*
 * The demo past's bulk inserts on PostgreSQL (the embedded database takes binary COPY,
 * copyRows.sql.ts): hand-written because each is one statement over column arrays (unnest) for
 * thousands of rows, where a query builder's multi-row VALUES would bind a parameter per value
 * (past PostgreSQL's 65,535 for the daily records of 42 houses) and parse far slower.
 */

const ROLLUP_PARTS = ['min', 'max', 'sum', 'n'];
const ROLLUP_TYPES = ['real', 'real', 'float8', 'int'];
/**
 * A rollup insert of the metrics a house reported (index into METRIC_KEYS). The others stay
 * null, which every reader takes as "no value" just like the live writer's count of 0:
 * leaving them out spares PGlite a fifth of the values to parse.
 */
const rollupInsert = (table: string, metrics: readonly number[]) => {
  const columns = metrics.flatMap((m) => ROLLUP_PARTS.map((p) => `"${METRIC_KEYS[m]!}_${p}"`));
  const params = columns.map((_, i) => `$${i + 4}::${ROLLUP_TYPES[i % 4]}[]`);
  return `insert into ${table} (house_id, bucket, readings, ${columns.join(', ')})
    select * from unnest($1::int[], $2::timestamptz[], $3::int[], ${params.join(', ')})`;
};
const INSERT_ALARMS = `
  insert into alarms (house_id, farm_id, cause, subject, severity, state, value, limit_value, text,
    raised_at, condition_ended_at, cleared_at, cleared_by, occurrences)
  select h, f, c, s, sev, 'cleared', v, l, t, r, e, cl, 'condition', o
  from unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::real[], $7::real[],
    $8::text[], $9::timestamptz[], $10::timestamptz[], $11::timestamptz[], $12::int[])
    as u(h, f, c, s, sev, v, l, t, r, e, cl, o)`;
const INSERT_FLOCKS = `
  insert into flocks (house_id, breed_id, placed_on, age_at_placement, head_count, closed_on)
  select h, (select breed_id from flocks where house_id = h and closed_on is null), p, a, n, c
  from unnest($1::int[], $2::date[], $3::int[], $4::int[], $5::date[]) as u(h, p, a, n, c)`;
const INSERT_DAYS = `
  insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg,
    eggs, egg_kg, body_weight_g, uniformity)
  select * from unnest($1::int[], $2::date[], $3::int[], $4::int[], $5::int[], $6::int[],
    $7::real[], $8::int[], $9::real[], $10::real[], $11::real[])
  on conflict do nothing`;

/** A closed flock of a house's past; it takes the breed of the house's open flock. */
export interface PastFlock {
  houseId: number;
  /** Dates as `YYYY-MM-DD`. */
  placedOn: string;
  ageAtPlacement: number;
  headCount: number;
  closedOn: string;
}

/** The closed flocks before each house's open one. */
export async function insertPastFlocks(database: Database, rows: readonly PastFlock[]) {
  if (rows.length === 0) return;
  await database.query(INSERT_FLOCKS, [
    arrayLiteral(rows.map((r) => r.houseId)),
    arrayLiteral(rows.map((r) => r.placedOn)),
    arrayLiteral(rows.map((r) => r.ageAtPlacement)),
    arrayLiteral(rows.map((r) => r.headCount)),
    arrayLiteral(rows.map((r) => r.closedOn)),
  ]);
}

/** Rollup rows of one house for the metrics it reported (index into METRIC_KEYS). */
export async function insertRollups(
  query: Query,
  table: 'telemetry_hourly' | 'telemetry_daily',
  houseId: number,
  buckets: Map<number, Bucket>,
  metrics: readonly number[],
): Promise<void> {
  await query(rollupInsert(table, metrics), bucketParams(houseId, buckets, metrics));
}

function bucketParams(
  houseId: number,
  buckets: Map<number, Bucket>,
  metrics: readonly number[],
): string[] {
  const list = [...buckets].sort((a, b) => a[0] - b[0]);
  const columns = [
    arrayLiteral(list.map(() => houseId)),
    arrayLiteral(list.map(([at]) => new Date(at))),
    arrayLiteral(list.map(([, row]) => row.readings)),
  ];
  for (const m of metrics) {
    for (let part = 0; part < 4; part += 1) {
      const c = m * 4 + part;
      // Sums to 4 decimals: exact enough for a mean, and short text to parse.
      const value = part === 2 ? (v: number) => Math.round(v * 1e4) / 1e4 : (v: number) => v;
      // n = 0: the metric had no value in the bucket; its min, max and sum stay null.
      columns.push(
        arrayLiteral(
          list.map(([, row]) =>
            part === 3 || row.agg[m * 4 + 3] !== 0 ? value(row.agg[c]!) : null,
          ),
        ),
      );
    }
  }
  return columns;
}

/** The alarms a house's past raised and cleared, stored cleared by their condition. */
export async function insertPastAlarms(
  query: Query,
  ids: HouseIds,
  history: HouseHistory,
): Promise<void> {
  const list = history.alarms;
  if (list.length === 0) return;
  await query(INSERT_ALARMS, [
    arrayLiteral(list.map(() => ids.houseId)),
    arrayLiteral(list.map(() => ids.farmId)),
    arrayLiteral(list.map((a) => a.cause)),
    arrayLiteral(list.map((a) => a.subject)),
    arrayLiteral(list.map((a) => a.severity)),
    arrayLiteral(list.map((a) => a.value)),
    arrayLiteral(list.map((a) => a.limit)),
    arrayLiteral(list.map((a) => a.text)),
    arrayLiteral(list.map((a) => new Date(a.raisedAt))),
    arrayLiteral(list.map((a) => (a.endedAt === null ? null : new Date(a.endedAt)))),
    arrayLiteral(list.map((a) => new Date(a.clearedAt))),
    arrayLiteral(list.map((a) => a.occurrences)),
  ]);
}

/** Daily records, a day already recorded kept as it is. */
export async function insertDemoDays(database: Database, days: readonly DemoDay[]): Promise<void> {
  const column = <K extends keyof DemoDay>(key: K) => arrayLiteral(days.map((d) => d[key]));
  await database.query(INSERT_DAYS, [
    column('flockId'),
    column('day'),
    column('deathsAm'),
    column('deathsPm'),
    column('cullsAm'),
    column('cullsPm'),
    column('feedKg'),
    column('eggs'),
    column('eggKg'),
    column('bodyWeightG'),
    column('uniformity'),
  ]);
}
