import { METRIC_KEYS } from '../../src/contract/metrics';
import type { Database, Query } from '../db/client';
import { STATE_COLUMNS, type StateRow } from '../houses/state';

/*
 * The batch insert: the hot statements of ingestion, hand-written because each is one
 * statement over typed column arrays (unnest of binary arrays, CTEs that write four tables)
 * that bench/ingest.ts measures, and that a query builder would neither express nor keep as
 * fast. The parameters are built by writer.ts (rawInsertParams, applyParams), in the order
 * each statement's text names them.
 */

/** PGlite answers a json aggregate as text, pg as parsed JSON. */
const toJson = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

const metricColumnList = METRIC_KEYS.map((k) => `"${k}"`).join(', ');
const metricParams = METRIC_KEYS.map((_, i) => `$${i + 7}::real[]`).join(', ');

// One statement for the whole batch: unnest of typed arrays (1.6–3.5× faster than VALUES).
export const INSERT_RAW_ROWS = `
  insert into telemetry (gateway_id, house_id, ts, seq, mode, faults, ${metricColumnList})
  select * from unnest($1::int[], $2::int[], $3::timestamptz[], $4::int[], $5::smallint[], $6::jsonb[], ${metricParams})
  on conflict (gateway_id, ts) do nothing`;

/**
 * INSERT_RAW_ROWS answering how many rows were new and, only when some were not, which were:
 * nearly every batch is all new, and sending 2,000 keys back to be parsed as dates cost more
 * than the rest of the answer.
 */
export const INSERT_RAW = `
  with inserted as (${INSERT_RAW_ROWS}
    returning gateway_id, ts)
  select count(*)::int as n,
    case when count(*) < cardinality($1::int[])
      then json_agg(json_build_array(gateway_id, (extract(epoch from ts) * 1000)::float8)) end as keys
  from inserted`;

const ROLLUP_COLUMNS = METRIC_KEYS.flatMap((k) => [
  `"${k}_min"`,
  `"${k}_max"`,
  `"${k}_sum"`,
  `"${k}_n"`,
]);
const ROLLUP_TYPES = ['real', 'real', 'float8', 'int'];
const ADD_TO_HOUR = METRIC_KEYS.map(
  (k) =>
    `"${k}_min" = least(h."${k}_min", excluded."${k}_min"), ` +
    `"${k}_max" = greatest(h."${k}_max", excluded."${k}_max"), ` +
    `"${k}_sum" = coalesce(h."${k}_sum" + excluded."${k}_sum", h."${k}_sum", excluded."${k}_sum"), ` +
    `"${k}_n" = coalesce(h."${k}_n", 0) + excluded."${k}_n"`,
).join(',\n    ');
/**
 * The statement's parameters from `$first` on: house, hour, readings; then min, max, sum, n per
 * metric (hourlyIncrements); then the heads (headParams).
 */
function hourParams(first: number): string {
  return [
    `$${first}::int[]`,
    `$${first + 1}::timestamptz[]`,
    `$${first + 2}::int[]`,
    ...ROLLUP_COLUMNS.map((_, i) => `$${first + 3 + i}::${ROLLUP_TYPES[i % 4]}[]`),
  ].join(', ');
}
const HEAD_TYPES = [
  'int',
  'int',
  'timestamptz',
  'timestamptz',
  'smallint',
  'jsonb',
  'jsonb',
  'jsonb',
];
function headParams(first: number): string {
  const at = first + 3 + ROLLUP_COLUMNS.length;
  return HEAD_TYPES.map((type, i) => `$${at + i}::${type}[]`).join(', ');
}

/**
 * What inserted rows add, as CTEs (`hours` … `came_online`, the new states in `state`): the
 * hours they add to (aggregated in JS from exactly the inserted readings: inside PGlite the
 * same aggregation cost 40 % of the batch), the days to recompute off the hot path, and the
 * houses' latest state, where only a reading newer than the stored one replaces values (a
 * sentinel removes the number it replaces and a number clears the fault). A house that comes
 * back online gets a line in its gateway's online log. `onlyIf`, a condition every row of
 * `hours` and `heads` must meet (WRITE_NEW_BATCH's check).
 */
function applyCtes(first: number, onlyIf = 'true'): string {
  return `hours as (
  select * from unnest(${hourParams(first)}) as u(house_id, bucket, readings, ${ROLLUP_COLUMNS.join(', ')})
  where ${onlyIf}
), dirty as (
  insert into rollup_dirty (house_id, hour)
  select house_id, bucket from hours
  on conflict do nothing
), hourly as (
  insert into telemetry_hourly as h (house_id, bucket, readings, ${ROLLUP_COLUMNS.join(', ')})
  select * from hours
  on conflict (house_id, bucket) do update set readings = h.readings + excluded.readings,
    ${ADD_TO_HOUR}
), heads as (
  select * from unnest(${headParams(first)}) as u(h, g, seen, ts, mode, m, f, d)
  where ${onlyIf}
), state as (
  insert into house_state as hs (house_id, gateway_id, online, online_since, last_seen_at, last_ts, mode, metrics, faults, devices, updated_at)
  select u.h, u.g, true, u.seen, u.seen, u.ts, u.mode, u.m, u.f, u.d, now() from heads u
  on conflict (house_id) do update set
    gateway_id = excluded.gateway_id,
    online = true,
    online_since = case when hs.online then hs.online_since else excluded.online_since end,
    last_seen_at = greatest(hs.last_seen_at, excluded.last_seen_at),
    last_ts = greatest(hs.last_ts, excluded.last_ts),
    mode = case when hs.last_ts is null or excluded.last_ts >= hs.last_ts then coalesce(excluded.mode, hs.mode) else hs.mode end,
    metrics = case when hs.last_ts is null or excluded.last_ts >= hs.last_ts
      then (hs.metrics - array(select jsonb_object_keys(excluded.faults))) || excluded.metrics else hs.metrics end,
    faults = case when hs.last_ts is null or excluded.last_ts >= hs.last_ts
      then (hs.faults - array(select jsonb_object_keys(excluded.metrics))) || excluded.faults else hs.faults end,
    devices = case when hs.last_ts is null or excluded.last_ts >= hs.last_ts then hs.devices || excluded.devices else hs.devices end,
    updated_at = now()
  returning gateway_id, ${STATE_COLUMNS}
), came_online as (
  insert into gateway_online_log (gateway_id, online, network, reason, at)
  select s.gateway_id, true, s.network, 'data', s.online_since
  from state s join heads u on u.h = s.house_id where s.online_since = u.seen
)`;
}

/**
 * What the inserted rows add (applyCtes), in one statement after INSERT_RAW in the same
 * transaction. Answers the new states as JSON.
 */
export const APPLY_INSERTED = `with ${applyCtes(1)}
select coalesce(json_agg(s), '[]'::json) as states from state s`;

const RAW_PARAMS = 6 + METRIC_KEYS.length;

/** The text by which WRITE_NEW_BATCH says that some of its readings were stored before. */
export const NOT_ALL_NEW = 'batch holds readings stored before';

/**
 * A whole batch in one statement, for the batch that is all new (nearly every one): the raw
 * rows, then what they add, as INSERT_RAW and APPLY_INSERTED would. One statement is atomic
 * without a transaction around it: one round trip to PostgreSQL instead of four (begin, two
 * statements, commit), one message to the embedded database's thread instead of four, each of
 * which waited for the main thread's turn. When a reading of the batch was stored before, the
 * statement fails with NOT_ALL_NEW (a cast of that text to a number, at run time: plain SQL
 * cannot raise), so nothing of it stays, and the batch is written the long way (writeBatch).
 */
export const WRITE_NEW_BATCH = `
with inserted as (${INSERT_RAW_ROWS}
    returning 1
), whole as (
  select count(*)::int as n, count(*) = cardinality($1::int[]) as yes from inserted
), ${applyCtes(RAW_PARAMS + 1, '(select yes from whole)')}
select case when (select yes from whole)
  then (select coalesce(json_agg(s), '[]'::json) from state s)
  else ('${NOT_ALL_NEW}: ' || (select n from whole) || ' new')::int::text::json end as states`;

/** INSERT_RAW's answer: how many rows were new, and which (gateway id, ms) only if not all. */
export interface RawInsertResult {
  n: number;
  keys: Array<[number, number]> | null;
}

/** The raw rows of a batch, a reading stored before skipped (INSERT_RAW_ROWS). */
export async function insertRawRows(query: Query, rawParams: unknown[]): Promise<void> {
  await query(INSERT_RAW_ROWS, rawParams);
}

/** The raw rows of a batch, answering which were new (INSERT_RAW). */
export async function insertRaw(query: Query, rawParams: unknown[]): Promise<RawInsertResult> {
  const [row] = await query<{ n: number; keys: Array<[number, number]> | string | null }>(
    INSERT_RAW,
    rawParams,
  );
  return { n: row?.n ?? 0, keys: row?.keys == null ? null : toJson(row.keys) };
}

/** What the inserted rows add (APPLY_INSERTED): answers the houses' new states. */
export async function applyInserted(query: Query, applyParams: unknown[]): Promise<StateRow[]> {
  const [row] = await query<{ states: StateRow[] | string }>(APPLY_INSERTED, applyParams);
  return toJson(row?.states ?? []);
}

/**
 * A batch that is all new, whole, in one statement (WRITE_NEW_BATCH), as a named prepared
 * statement on PostgreSQL. Answers the houses' new states, or null when a reading of the batch
 * was stored before: then nothing of it stayed.
 */
export async function writeNewBatch(
  database: Database,
  rawParams: unknown[],
  applyParams: unknown[],
): Promise<StateRow[] | null> {
  try {
    const [row] = await database.query<{ states: StateRow[] | string }>(
      WRITE_NEW_BATCH,
      [...rawParams, ...applyParams],
      { prepare: 'roost_write_new_batch' },
    );
    return toJson(row?.states ?? []);
  } catch (error) {
    if (!String((error as Error).message).includes(NOT_ALL_NEW)) throw error;
    return null;
  }
}
