import { FEED_BIN_CODE } from '../../src/contract/earlyWarnings';
import type { Database } from '../db/client';

/**
 * How long a feed bin lasts, from its measured level (a terminal device's `feed_bin` extra
 * parameter, kg). The fall since the last refill over the recent hours gives the rate; with too
 * short a fall to judge (just refilled), the flock's daily feed does. Pure but for the read.
 */

export interface BinReading {
  ts: number;
  kg: number;
}

export interface BinEstimate {
  levelKg: number;
  /** kg eaten an hour, at the rate used. */
  kgPerHour: number;
  hoursLeft: number;
}

/** How far back the level's fall is read. */
export const BIN_WINDOW_MS = 12 * 3_600_000;
/** A fall over less than this is noise, not a rate. */
const MIN_FALL_MS = 2 * 3_600_000;
/** A level older than this says nothing about now (the sensor or its gateway is away). */
const STALE_MS = 3 * 3_600_000;
/** A rise of more than this (kg, or 5 % of the level) between two readings is a refill. */
const REFILL_KG = 50;

export function estimateBinHours(
  readings: readonly BinReading[],
  nowMs: number,
  /** The flock's feed of its last recorded day (kg), when known. */
  dailyFeedKg: number | null,
): BinEstimate | null {
  const recent = readings
    .filter((r) => r.ts <= nowMs && r.ts > nowMs - BIN_WINDOW_MS)
    .sort((a, b) => a.ts - b.ts);
  const last = recent.at(-1);
  if (!last || nowMs - last.ts > STALE_MS) return null;
  let start = 0;
  for (let i = 1; i < recent.length; i += 1) {
    const before = recent[i - 1]!.kg;
    if (recent[i]!.kg - before > Math.max(REFILL_KG, before * 0.05)) start = i;
  }
  const first = recent[start]!;
  const span = last.ts - first.ts;
  let kgPerHour: number | null = null;
  if (span >= MIN_FALL_MS && first.kg > last.kg)
    kgPerHour = (first.kg - last.kg) / (span / 3_600_000);
  else if (dailyFeedKg !== null && dailyFeedKg > 0) kgPerHour = dailyFeedKg / 24;
  if (kgPerHour === null || kgPerHour <= 0) return null;
  return { levelKg: last.kg, kgPerHour, hoursLeft: Math.max(0, last.kg) / kgPerHour };
}

/** The bin levels of these houses over the window before `nowMs`, by house. */
export async function readBinLevels(
  database: Database,
  houseIds: readonly number[],
  nowMs: number,
): Promise<Map<number, BinReading[]>> {
  const out = new Map<number, BinReading[]>();
  if (houseIds.length === 0) return out;
  const rows = await database.query<{ house_id: number; ts: Date | string; value: number }>(
    `select house_id, ts, value from telemetry_extra
     where house_id = any($1::int[]) and code = $2 and ts > $3 and ts <= $4 order by ts`,
    [[...houseIds], FEED_BIN_CODE, new Date(nowMs - BIN_WINDOW_MS), new Date(nowMs)],
  );
  for (const r of rows) {
    const list = out.get(Number(r.house_id)) ?? [];
    list.push({ ts: new Date(r.ts).getTime(), kg: Number(r.value) });
    out.set(Number(r.house_id), list);
  }
  return out;
}
