import { z } from 'zod';

/** What "far from target" is read from: the air of a house. */
export const RANKED_METRICS = ['temperature', 'humidity', 'co2', 'nh3'] as const;
export type RankedMetric = (typeof RANKED_METRICS)[number];

/** The most farms the ranking answers: a wall shows a handful; the rest only need to be behind. */
export const WALL_RANKING_MAX = 200;

/**
 * One farm's house furthest from its target now: which reading, its target (null for a plain
 * ceiling such as NH3's) and the alarm limit, and `share`, how far along the way from target to
 * limit the reading is (0 at target, 1 at the limit, above 1 past it).
 */
export const wallFarmDistanceSchema = z.object({
  farmId: z.number().int(),
  houseId: z.number().int(),
  houseName: z.string(),
  metric: z.enum(RANKED_METRICS),
  value: z.number(),
  target: z.number().nullable(),
  limit: z.number(),
  share: z.number().nonnegative(),
});
export type WallFarmDistance = z.infer<typeof wallFarmDistanceSchema>;

/** GET /api/wall/ranking: the farms in scope furthest from target, furthest first. */
export const wallRankingSchema = z.object({
  farms: z.array(wallFarmDistanceSchema).max(WALL_RANKING_MAX),
  asOf: z.string(),
});
export type WallRanking = z.infer<typeof wallRankingSchema>;

/** A farm as the ranking orders it: open alarms (live) first, then distance from target. */
export interface RankedFarm {
  farmId: number;
  name: string;
  alarmCount: number;
  distance: WallFarmDistance | null;
  /** Every house of the farm offline: no reading says whether it is on target. */
  offline: boolean;
}

/**
 * Names in the runtime's language order. One collator: `localeCompare` sets one up on each
 * call, and a wall compares thousands of farms a second, many tied on alarms and distance.
 */
const byName = new Intl.Collator();

/** Worst first: more open alarms, then further from target, then by name (stable). */
export const compareFarms = (
  a: Pick<RankedFarm, 'alarmCount' | 'distance' | 'name'>,
  b: Pick<RankedFarm, 'alarmCount' | 'distance' | 'name'>,
): number =>
  b.alarmCount - a.alarmCount ||
  (b.distance?.share ?? 0) - (a.distance?.share ?? 0) ||
  byName.compare(a.name, b.name);

/** A drilled farm's houses draw their last hours of temperature, one point per step. */
export const WALL_CURVE_HOURS = 6;
export const WALL_CURVE_STEP_MS = 10 * 60_000;

/** One house's curve: a point per step (null where it reported nothing) and its target now. */
export const wallHouseCurveSchema = z.object({
  houseId: z.number().int(),
  target: z.number().nullable(),
  temperature: z.array(z.number().nullable()),
});
export type WallHouseCurve = z.infer<typeof wallHouseCurveSchema>;

/** GET /api/wall/farm/:farmId/curves: from `from` (ms), a point every WALL_CURVE_STEP_MS. */
export const wallFarmCurvesSchema = z.object({
  farmId: z.number().int(),
  from: z.number(),
  houses: z.array(wallHouseCurveSchema),
});
export type WallFarmCurves = z.infer<typeof wallFarmCurvesSchema>;
