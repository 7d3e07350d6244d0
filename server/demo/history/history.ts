import { METRIC_KEYS } from '../../../src/contract/metrics';
import type { Database, Query } from '../../db/client';
import { arrayLiteral } from '../../db/arrayLiteral';
import { insertRawRows } from '../../ingest/batch.sql';
import { rawInsertParams, writeBatch } from '../../ingest/writer';
import type { Reading } from '../../ingest/types';
import { HouseModel } from '../../simulator/houseModel';
import { DEMO_INTERVAL_SECONDS } from '../demoFarms';
import type { DemoGateway } from '../seed';
import { flockTimeline, isoDate } from './flocks';
import {
  generateHouseHistory,
  rollDays,
  splitSentinels,
  type Bucket,
  type HistoryPlan,
  type HouseHistory,
  type HouseIds,
} from './generate';
import { localDay } from '../../production/records';
import { copyRaw, copyRollups } from './copyRows';
import { writeDemoDailyRecords } from './dailyRecords';
import { dayStartIn } from './zone';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A quarter of rollups, a day to spare: House Compared's longest preset is three months. */
export const HISTORY_DAYS = 91;
/** Raw readings for the last two days: the monitor's 24-hour curve and the day before it. */
export const RAW_HOURS = 48;
/** Older past is stepped every 20 minutes: three readings an hour make its hourly rollups. */
const COARSE_STEP_MS = 20 * 60_000;
/**
 * The past's raw readings come at a real gateway's default interval (a minute), not the live
 * demo's 30 s: half the work at a cold start, and a minute-resolution day curve all the same.
 */
const RAW_STEP_MS = 60_000;
/**
 * Live, every house has a fault of each kind every 6–8 hours; the past has one every 45–60
 * days, so its alarm list holds a few believable alarms per house rather than hundreds.
 */
const PAST_FAULT_SCALE = 180;
const RAW_ROWS_PER_INSERT = 2_000;

export interface HistoryOptions {
  timeZone: string;
  seed: number;
  /** The end of the past (and the live simulator's start); default now. */
  nowMs?: number;
}

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

/**
 * Gives a new demo the past a real farm would have: `HISTORY_DAYS` of hourly and daily rollups
 * and `RAW_HOURS` of raw readings per house, made by the simulator's own house models on a
 * simulated clock, the alarms that past raised and cleared, and the flocks before the open one.
 * Everything goes in with binary COPY on the embedded database (copyRows.ts) and multi-row
 * inserts on PostgreSQL; the rollups are summed here from the readings,
 * not recomputed by the rollup worker. Answers the models, standing at the present, for the
 * live simulator to carry on from.
 */
export async function writeDemoHistory(
  database: Database,
  gateways: readonly DemoGateway[],
  options: HistoryOptions,
): Promise<HouseModel[]> {
  const toMs = options.nowMs ?? Date.now();
  const plan: HistoryPlan = {
    fromMs: Math.floor((toMs - HISTORY_DAYS * DAY_MS) / HOUR_MS) * HOUR_MS,
    toMs,
    rawFromMs: toMs - RAW_HOURS * HOUR_MS,
    rawStepMs: RAW_STEP_MS,
    coarseStepMs: COARSE_STEP_MS,
  };
  const ids = await houseIds(database, gateways);
  const timelines = gateways.map((g) => flockTimeline(g, plan.fromMs));
  const models = gateways.map(
    (house, index) =>
      new HouseModel({
        house,
        seed: options.seed,
        startMs: toMs,
        index,
        fleetSize: gateways.length,
        intervalMs: COARSE_STEP_MS,
        flocks: timelines[index],
        pastFaults: { fromMs: plan.fromMs, untilMs: toMs, periodScale: PAST_FAULT_SCALE },
      }),
  );
  const dayOf = dayStartIn(options.timeZone);
  await insertFlocks(database, gateways, ids, timelines);
  await writeDemoDailyRecords(
    database,
    ids.map((i) => i.houseId),
    localDay(new Date(plan.fromMs), options.timeZone),
    localDay(new Date(toMs), options.timeZone),
  );
  // Generating is CPU work here, writing is PGlite's thread (or PostgreSQL): one house is
  // written while the next is generated.
  let writing: Promise<void> = Promise.resolve();
  for (let i = 0; i < gateways.length; i += 1) {
    const history = generateHouseHistory(models[i]!, gateways[i]!, ids[i]!, plan);
    await writing;
    writing = writeHouse(database, ids[i]!, history, dayOf);
  }
  await writing;
  await catchUp(database, models, gateways, ids, DEMO_INTERVAL_SECONDS * 1000, toMs);
  return models;
}

async function houseIds(database: Database, gateways: readonly DemoGateway[]): Promise<HouseIds[]> {
  const rows = await database.query<{
    id: number;
    house_id: number;
    farm_id: number;
    network_id: string;
  }>(
    `select g.id, g.house_id, h.farm_id, g.network_id from gateways g join houses h on h.id = g.house_id
     where g.network_id = any($1::text[])`,
    [gateways.map((g) => g.networkId)],
  );
  const byNetwork = new Map(rows.map((r) => [r.network_id, r]));
  return gateways.map((g) => {
    const row = byNetwork.get(g.networkId);
    if (!row) throw new Error(`demo gateway ${g.networkId} not found`);
    return { gatewayId: row.id, houseId: row.house_id, farmId: row.farm_id };
  });
}

/** The closed flocks before each house's open one, as the farm's records keep them. */
async function insertFlocks(
  database: Database,
  gateways: readonly DemoGateway[],
  ids: readonly HouseIds[],
  timelines: ReturnType<typeof flockTimeline>[],
): Promise<void> {
  const rows = timelines.flatMap((flocks, i) =>
    flocks
      .filter((f) => f.closedMs !== null)
      .map((f) => ({ houseId: ids[i]!.houseId, f, breed: gateways[i]!.breed })),
  );
  if (rows.length === 0) return;
  await database.query(INSERT_FLOCKS, [
    arrayLiteral(rows.map((r) => r.houseId)),
    arrayLiteral(rows.map((r) => r.f.placedOn)),
    arrayLiteral(rows.map((r) => r.f.ageAtPlacement)),
    arrayLiteral(rows.map((r) => r.f.headCount)),
    arrayLiteral(rows.map((r) => isoDate(r.f.closedMs!))),
  ]);
}

async function writeHouse(
  database: Database,
  ids: HouseIds,
  history: HouseHistory,
  dayOf: (ms: number) => number,
): Promise<void> {
  if (database.kind === 'pglite') {
    await database.transaction(async ({ query }) => {
      const metrics = reportedMetrics(history.hours);
      await copyRaw(query, history.raw);
      await copyRollups(query, 'telemetry_hourly', ids.houseId, history.hours, metrics);
      const days = rollDays(history.hours, dayOf);
      await copyRollups(query, 'telemetry_daily', ids.houseId, days, metrics);
      await insertAlarms(query, ids, history);
    });
    return;
  }
  await database.transaction(async ({ query }) => {
    for (let at = 0; at < history.raw.length; at += RAW_ROWS_PER_INSERT)
      await insertRawRows(query, rawInsertParams(history.raw.slice(at, at + RAW_ROWS_PER_INSERT)));
    const metrics = reportedMetrics(history.hours);
    await query(
      rollupInsert('telemetry_hourly', metrics),
      bucketParams(ids.houseId, history.hours, metrics),
    );
    await query(
      rollupInsert('telemetry_daily', metrics),
      bucketParams(ids.houseId, rollDays(history.hours, dayOf), metrics),
    );
    await insertAlarms(query, ids, history);
  });
}

/** The metrics (index into METRIC_KEYS) with at least one value in some bucket. */
function reportedMetrics(buckets: Map<number, Bucket>): number[] {
  const seen = new Set<number>();
  for (const row of buckets.values())
    for (let m = 0; m < METRIC_KEYS.length; m += 1) if (row.agg[m * 4 + 3] !== 0) seen.add(m);
  return [...seen].sort((a, b) => a - b);
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

async function insertAlarms(query: Query, ids: HouseIds, history: HouseHistory): Promise<void> {
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

/**
 * Writing the past took a few seconds: the readings of those seconds go through the ordinary
 * write path (which also fills each house's live state), so the live simulator's first
 * readings follow the last stored ones at the usual interval.
 */
async function catchUp(
  database: Database,
  models: readonly HouseModel[],
  gateways: readonly DemoGateway[],
  ids: readonly HouseIds[],
  stepMs: number,
  lastMs: number,
): Promise<void> {
  const now = Date.now();
  const batch: Reading[] = [];
  for (let i = 0; i < models.length; i += 1) {
    // The last past reading of every house was at or just before `lastMs`.
    for (let t = lastMs; t <= now; t += stepMs) {
      const message = models[i]!.next(t).message;
      const ts = new Date(message.ts);
      const { metrics, faults } = splitSentinels(message.metrics);
      batch.push({
        ...ids[i]!,
        networkId: gateways[i]!.networkId,
        ts,
        receivedAt: ts,
        seq: message.seq,
        mode: message.mode ?? null,
        metrics,
        faults,
        devices: message.devices ?? {},
      });
    }
  }
  if (batch.length > 0) await database.transaction(({ query }) => writeBatch(query, batch));
}
