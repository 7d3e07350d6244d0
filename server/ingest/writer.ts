import { METRIC_KEYS } from '../../src/contract/metrics';
import { binaryArray, float4ArrayOf, numberArray, type NumberType } from '../db/binaryArray';
import type { CopyType, CopyValue } from '../db/binaryCopy';
import type { Database, Query } from '../db/client';
import { writeExtras } from '../devices/extraStore';
import { stateFromRow, type HouseLiveState, type StateRow } from '../houses/state';
import { applyInserted, insertRaw, writeNewBatch } from './batch.sql';
import type { Reading } from './types';

/**
 * The parameters of INSERT_RAW for a batch: one binary array per column, the metrics' read
 * straight from the readings.
 */
export function rawInsertParams(batch: readonly Reading[]): unknown[] {
  const n = batch.length;
  const gateways = new Array<number>(n);
  const houses = new Array<number>(n);
  const times = new Array<Date>(n);
  const seqs = new Array<number | null>(n);
  const modes = new Array<number | null>(n);
  const faults = new Array<string | null>(n);
  const metrics = new Array<Reading['metrics']>(n);
  for (let i = 0; i < n; i += 1) {
    const r = batch[i]!;
    gateways[i] = r.gatewayId;
    houses[i] = r.houseId;
    times[i] = r.ts;
    seqs[i] = r.seq;
    modes[i] = r.mode;
    faults[i] = hasKeys(r.faults) ? JSON.stringify(r.faults) : null;
    metrics[i] = r.metrics;
  }
  return [
    numberArray('int4', gateways),
    numberArray('int4', houses),
    binaryArray('timestamptz', times),
    numberArray('int4', seqs),
    binaryArray('int2', modes),
    binaryArray('jsonb', faults),
    ...METRIC_KEYS.map((key) => float4ArrayOf(metrics, key)),
  ];
}

function hasKeys(record: object): boolean {
  for (const _ in record) return true;
  return false;
}

const ROLLUP_COPY_TYPES: NumberType[] = ['float4', 'float4', 'float8', 'int4'];

const HOUR_MS = 3_600_000;

/**
 * The hourly rollup's increments of some readings, one entry per house and hour, as the
 * statement's column arrays. Stored values are float4: min, max and the float8 sum use the
 * float4-rounded values, as SQL aggregating the stored rows would.
 */
export function hourlyIncrements(readings: readonly Reading[]): Buffer[] {
  // Keyed by house and hour in one number (hours since 1970 stay under 2^21 until the year
  // 2209): a string key was built per reading.
  const rows = new Map<
    number,
    { houseId: number; bucket: number; readings: number; agg: Float64Array }
  >();
  const width = METRIC_KEYS.length;
  for (const r of readings) {
    const bucket = Math.floor(r.ts.getTime() / HOUR_MS) * HOUR_MS;
    const key = r.houseId * 2_097_152 + bucket / HOUR_MS;
    let row = rows.get(key);
    if (!row) {
      // min, max, sum, n per metric; n = 0 means no value (the columns stay null).
      const agg = new Float64Array(width * 4);
      row = { houseId: r.houseId, bucket, readings: 0, agg };
      rows.set(key, row);
    }
    row.readings += 1;
    const agg = row.agg;
    for (let m = 0; m < width; m += 1) {
      const raw = r.metrics[METRIC_KEYS[m]!];
      if (raw === undefined || raw === null) continue;
      const v = Math.fround(raw);
      const at = m * 4;
      if (agg[at + 3] === 0) {
        agg[at] = v;
        agg[at + 1] = v;
      } else {
        if (v < agg[at]!) agg[at] = v;
        if (v > agg[at + 1]!) agg[at + 1] = v;
      }
      agg[at + 2]! += v;
      agg[at + 3]! += 1;
    }
  }
  // In house and hour order: two server processes on one PostgreSQL lock shared rows in one
  // order (the alarm engine locks its rule states so too), so they wait rather than deadlock.
  const list = [...rows.values()].sort((a, b) => a.houseId - b.houseId || a.bucket - b.bucket);
  const houses = list.map((row) => row.houseId);
  const hours = list.map((row) => row.bucket);
  const counts = list.map((row) => row.readings);
  const columns: Buffer[] = [
    numberArray('int4', houses),
    binaryArray('timestamptz', hours),
    numberArray('int4', counts),
  ];
  const values = new Array<number | null>(list.length);
  for (let c = 0; c < width * 4; c += 1) {
    const countAt = c - (c % 4) + 3;
    for (let i = 0; i < list.length; i += 1) {
      const agg = list[i]!.agg;
      values[i] = c === countAt || agg[countAt] !== 0 ? agg[c]! : null;
    }
    columns.push(numberArray(ROLLUP_COPY_TYPES[c % 4]!, values));
  }
  return columns;
}

export interface WriteResult {
  inserted: Reading[];
  duplicates: number;
  states: HouseLiveState[];
}

/**
 * Stores one batch and answers only what was new. Two statements, to be run in one
 * transaction: the raw rows (a resent reading is skipped), then what exactly the inserted rows
 * add (rollup, state, online log).
 */
export async function writeBatch(query: Query, batch: readonly Reading[]): Promise<WriteResult> {
  if (batch.length === 0) return { inserted: [], duplicates: 0, states: [] };
  const counted = await insertRaw(query, rawInsertParams(batch));
  const inserted = counted.n === batch.length ? [...batch] : newOnes(batch, counted.keys ?? []);
  if (inserted.length === 0) return { inserted, duplicates: batch.length, states: [] };
  if (inserted.some((r) => r.extraKeys)) await writeExtras(query, inserted);
  const heads = latestPerHouse(inserted);
  const states = await applyInserted(query, applyParams(inserted, heads));
  return {
    inserted,
    duplicates: batch.length - inserted.length,
    states: statesOf(states, heads),
  };
}

/**
 * Stores one batch, atomically, and answers only what was new: in one statement when it is
 * all new and carries no extra parameters (WRITE_NEW_BATCH), else in a transaction of its own
 * (writeBatch).
 */
export async function storeBatch(
  database: Database,
  batch: readonly Reading[],
): Promise<WriteResult> {
  if (batch.length > 0 && !batch.some((r) => r.extraKeys)) {
    const heads = latestPerHouse(batch);
    const states = await writeNewBatch(database, rawInsertParams(batch), applyParams(batch, heads));
    if (states) return { inserted: [...batch], duplicates: 0, states: statesOf(states, heads) };
  }
  return database.transaction(({ query }) => writeBatch(query, batch));
}

/** APPLY_INSERTED's parameters (and WRITE_NEW_BATCH's after the raw rows'). */
export function applyParams(inserted: readonly Reading[], heads: readonly Reading[]): Buffer[] {
  const ofHeads = (type: CopyType, value: (r: Reading) => CopyValue) =>
    binaryArray(type, heads.map(value));
  return [
    ...hourlyIncrements(inserted),
    ofHeads('int4', (r) => r.houseId),
    ofHeads('int4', (r) => r.gatewayId),
    ofHeads('timestamptz', (r) => r.receivedAt),
    ofHeads('timestamptz', (r) => r.ts),
    ofHeads('int2', (r) => r.mode),
    ofHeads('jsonb', (r) => JSON.stringify(r.metrics)),
    ofHeads('jsonb', (r) => JSON.stringify(r.faults)),
    ofHeads('jsonb', (r) => JSON.stringify(r.devices)),
  ];
}

function statesOf(states: StateRow[], heads: readonly Reading[]) {
  const farmOf = new Map(heads.map((r) => [r.houseId, r.farmId]));
  return states.map((state) => stateFromRow(state, farmOf.get(state.house_id) ?? 0));
}

/** The readings of a batch whose keys the insert answered, each once. */
function newOnes(batch: readonly Reading[], keys: Array<[number, number]>): Reading[] {
  const insertedKeys = new Set(keys.map(([gatewayId, ms]) => `${gatewayId}:${ms}`));
  const inserted: Reading[] = [];
  for (const reading of batch) {
    // A batch may hold the same reading twice (a resend racing its original): count it once.
    if (insertedKeys.delete(`${reading.gatewayId}:${reading.ts.getTime()}`)) inserted.push(reading);
  }
  return inserted;
}

/**
 * Whether merging `list` (oldest first) would give `newest` itself: no faults anywhere, and
 * every metric and device of the older readings also in the newest, which has a mode when any
 * of them does. Key look-ups only, where the merge wrote three objects afresh per reading.
 */
function coversAll(newest: Reading, list: readonly Reading[]): boolean {
  if (hasKeys(newest.faults)) return false;
  for (const r of list) {
    if (r === newest) continue;
    if (hasKeys(r.faults) || (r.mode !== null && newest.mode === null)) return false;
    for (const key in r.metrics) if (!(key in newest.metrics)) return false;
    for (const key in r.devices) if (!(key in newest.devices)) return false;
  }
  return true;
}

/** The batch's readings merged per house, the newest winning field by field. */
function latestPerHouse(batch: readonly Reading[]): Reading[] {
  const byHouse = new Map<number, Reading[]>();
  for (const r of batch) {
    const list = byHouse.get(r.houseId);
    if (list) list.push(r);
    else byHouse.set(r.houseId, [r]);
  }
  const merged: Reading[] = [];
  // In house order, as the hours (hourlyIncrements): the state rows are locked in that order.
  const houses = [...byHouse.keys()].sort((a, b) => a - b);
  for (const house of houses) {
    const list = byHouse.get(house)!;
    if (list.length === 1) {
      merged.push(list[0]!);
      continue;
    }
    // Oldest first, so each newer reading overwrites the fields it carries (stable on ties).
    list.sort((a, b) => a.ts.getTime() - b.ts.getTime());
    const newest = list.at(-1)!;
    // Nearly always the newest reading carries every field the older ones did: it is the merge.
    if (coversAll(newest, list)) {
      merged.push(newest);
      continue;
    }
    const metrics: Reading['metrics'] = {};
    const faults: Reading['faults'] = {};
    const devices: Reading['devices'] = {};
    let mode: number | null = null;
    let anyFault = false;
    for (const r of list) {
      // A newer number ends an older fault of the same metric, and a newer fault its number
      // (faults are rare: the common path deletes nothing).
      if (anyFault) for (const key in r.metrics) if (key in faults) delete faults[key];
      for (const key in r.faults) {
        anyFault = true;
        if (key in metrics) delete metrics[key];
      }
      Object.assign(metrics, r.metrics);
      Object.assign(faults, r.faults);
      Object.assign(devices, r.devices);
      mode = r.mode ?? mode;
    }
    merged.push({ ...newest, metrics, faults, devices, mode });
  }
  return merged;
}
