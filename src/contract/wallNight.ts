import { z } from 'zod';
import { ALARM_SEVERITIES, type AlarmSeverity } from './alarms';
import { isTimeZone } from './domain';

/** The hours the night's story shows: the current one and the 23 before it. */
export const WALL_NIGHT_HOURS = 24;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/**
 * GET /api/wall/night's input: the viewer's time zone (the browser's own), which decides where
 * hours and days begin; without it, the deployment's.
 */
export const wallNightQuerySchema = z.object({
  timeZone: z.string().max(64).refine(isTimeZone, 'wall.badTimeZone').optional(),
});

const countsSchema = z.object({
  critical: z.number().int().nonnegative(),
  major: z.number().int().nonnegative(),
  minor: z.number().int().nonnegative(),
});
export type SeverityCounts = z.infer<typeof countsSchema>;

/** One hour: the alarms raised in it and those cleared in it, by severity. */
export const wallNightHourSchema = z.object({ raised: countsSchema, cleared: countsSchema });
export type WallNightHour = z.infer<typeof wallNightHourSchema>;

const totalsSchema = z.object({
  raised: z.number().int().nonnegative(),
  cleared: z.number().int().nonnegative(),
});
export type NightTotals = z.infer<typeof totalsSchema>;

/**
 * GET /api/wall/night: the alarms raised and cleared per hour in the viewer's time zone, for
 * the last 24 hours (`today`, oldest first, the last one is the current hour, begun at
 * `hourStart`) and the same 24 hours a day earlier (`yesterday`, slot for slot 24 h before);
 * with the day's counts since `midnight` beside yesterday's by the end of the same hour.
 */
export const wallNightSchema = z.object({
  timeZone: z.string(),
  /** The server's clock when it counted: a live event heard during the read counts if later. */
  asOf: z.string(),
  /** When the current (last) hour began. */
  hourStart: z.string(),
  /** When the viewer's day began. */
  midnight: z.string(),
  today: z.array(wallNightHourSchema).length(WALL_NIGHT_HOURS),
  yesterday: z.array(wallNightHourSchema).length(WALL_NIGHT_HOURS),
  totals: z.object({ today: totalsSchema, yesterday: totalsSchema }),
});
export type WallNight = z.infer<typeof wallNightSchema>;

export const emptyCounts = (): SeverityCounts => ({ critical: 0, major: 0, minor: 0 });
export const emptyHour = (): WallNightHour => ({ raised: emptyCounts(), cleared: emptyCounts() });

export const countOf = (counts: SeverityCounts): number =>
  ALARM_SEVERITIES.reduce((sum, severity: AlarmSeverity) => sum + counts[severity], 0);

/**
 * The day's counts: the hours of `today` from midnight on, and of `yesterday` from the midnight
 * before (the hours of the window always reach back to midnight: it is 24 hours long). Server
 * and wall count the same way, so a live wall's totals stay the answer's.
 */
export function dayTotals(
  night: Pick<WallNight, 'hourStart' | 'midnight' | 'today' | 'yesterday'>,
): WallNight['totals'] {
  const first = Date.parse(night.hourStart) - (WALL_NIGHT_HOURS - 1) * HOUR_MS;
  const midnight = Date.parse(night.midnight);
  const sum = (hours: WallNightHour[], from: number, offset: number): NightTotals => {
    const since = hours.filter((_, i) => first + i * HOUR_MS - offset >= from);
    return {
      raised: since.reduce((n, h) => n + countOf(h.raised), 0),
      cleared: since.reduce((n, h) => n + countOf(h.cleared), 0),
    };
  };
  return {
    today: sum(night.today, midnight, 0),
    yesterday: sum(night.yesterday, midnight - DAY_MS, DAY_MS),
  };
}
