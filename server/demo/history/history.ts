import { METRIC_KEYS } from '../../../src/contract/metrics';
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { gateways as gatewayTable, houses } from '../../db/schema';
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
import { copyRaw, copyRollups } from './copyRows.sql';
import { writeDemoDailyRecords } from './dailyRecords';
import { insertPastAlarms, insertPastFlocks, insertRollups } from './history.sql';
import { dayStartIn } from './zone';
import { STORY_WATER_FACTOR } from '../stories';

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
  const dayOf = dayStartIn(options.timeZone);
  // The water story's day is yesterday as the farm's clock has it: the day the warning compares.
  const today = dayOf(toMs);
  const yesterday = { fromMs: dayOf(today - 1), toMs: today, factor: STORY_WATER_FACTOR };
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
        waterCut: house.story === 'waterDrop' ? yesterday : undefined,
      }),
  );
  await insertFlocks(database, gateways, ids, timelines);
  await writeDemoDailyRecords(
    database,
    ids.map((i) => i.houseId),
    localDay(new Date(plan.fromMs), options.timeZone),
    localDay(new Date(toMs), options.timeZone),
    new Map(gateways.flatMap((g, i) => (g.story ? [[ids[i]!.houseId, g.story] as const] : []))),
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
  const rows = await database.db
    .select({
      id: gatewayTable.id,
      houseId: houses.id,
      farmId: houses.farmId,
      networkId: gatewayTable.networkId,
    })
    .from(gatewayTable)
    .innerJoin(houses, eq(houses.id, gatewayTable.houseId))
    .where(
      inArray(
        gatewayTable.networkId,
        gateways.map((g) => g.networkId),
      ),
    );
  const byNetwork = new Map(rows.map((r) => [r.networkId, r]));
  return gateways.map((g) => {
    const row = byNetwork.get(g.networkId);
    if (!row) throw new Error(`demo gateway ${g.networkId} not found`);
    return { gatewayId: row.id, houseId: row.houseId, farmId: row.farmId };
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
  await insertPastFlocks(
    database,
    rows.map((r) => ({
      houseId: r.houseId,
      placedOn: r.f.placedOn,
      ageAtPlacement: r.f.ageAtPlacement,
      headCount: r.f.headCount,
      closedOn: isoDate(r.f.closedMs!),
    })),
  );
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
      await insertPastAlarms(query, ids, history);
    });
    return;
  }
  await database.transaction(async ({ query }) => {
    for (let at = 0; at < history.raw.length; at += RAW_ROWS_PER_INSERT)
      await insertRawRows(query, rawInsertParams(history.raw.slice(at, at + RAW_ROWS_PER_INSERT)));
    const metrics = reportedMetrics(history.hours);
    await insertRollups(query, 'telemetry_hourly', ids.houseId, history.hours, metrics);
    const days = rollDays(history.hours, dayOf);
    await insertRollups(query, 'telemetry_daily', ids.houseId, days, metrics);
    await insertPastAlarms(query, ids, history);
  });
}

/** The metrics (index into METRIC_KEYS) with at least one value in some bucket. */
function reportedMetrics(buckets: Map<number, Bucket>): number[] {
  const seen = new Set<number>();
  for (const row of buckets.values())
    for (let m = 0; m < METRIC_KEYS.length; m += 1) if (row.agg[m * 4 + 3] !== 0) seen.add(m);
  return [...seen].sort((a, b) => a - b);
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
