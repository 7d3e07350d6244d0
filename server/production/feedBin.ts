import { FEED_BIN_CODE } from '../../src/contract/earlyWarnings';
import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Database } from '../db/client';
import { telemetryExtra } from '../db/devicesSchema';

/**
 * How long a feed bin lasts, from its measured level (a terminal device's `feed_bin` extra
 * parameter, kg). The fall since the last refill over the recent hours gives the rate, or the
 * flock's daily feed where that is faster (a night's fall, or too short a fall to judge just
 * after a refill). Pure but for the read.
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
  const measured =
    span >= MIN_FALL_MS && first.kg > last.kg ? (first.kg - last.kg) / (span / 3_600_000) : 0;
  // Birds hardly eat while the lights are off: a fall measured over a dark night is slower than
  // the day's feed, and judged alone it would stretch the bin's hours past the warning (and back
  // under it at dawn). The faster of the two is what the bin has to feed.
  const daily = dailyFeedKg !== null && dailyFeedKg > 0 ? dailyFeedKg / 24 : 0;
  const kgPerHour = Math.max(measured, daily);
  if (kgPerHour <= 0) return null;
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
  const rows = await database.db
    .select({ houseId: telemetryExtra.houseId, ts: telemetryExtra.ts, kg: telemetryExtra.value })
    .from(telemetryExtra)
    .where(
      and(
        inArray(telemetryExtra.houseId, [...houseIds]),
        eq(telemetryExtra.code, FEED_BIN_CODE),
        gt(telemetryExtra.ts, new Date(nowMs - BIN_WINDOW_MS)),
        lte(telemetryExtra.ts, new Date(nowMs)),
      ),
    )
    .orderBy(asc(telemetryExtra.ts));
  for (const r of rows) {
    const list = out.get(r.houseId) ?? [];
    list.push({ ts: r.ts.getTime(), kg: r.kg });
    out.set(r.houseId, list);
  }
  return out;
}
