import { z } from 'zod';
import { jsonIdSchema } from './ids';

/**
 * Data completeness: per house and day, the share of the readings its gateway promised (one
 * every `intervalSeconds` of the gateway row, 60 s unless set when the gateway is saved) that
 * were stored. A day counts from the later of its midnight and the house's first reading or
 * its gateway's creation, up to the earlier of its end and now, so today and a gateway's first
 * day are not held against it.
 */

/** The reminder's threshold when ROOST_COMPLETENESS_MIN_PERCENT is not set. */
export const DEFAULT_COMPLETENESS_MIN_PERCENT = 90;

/** The longest window one request may ask for, in days. */
export const MAX_COMPLETENESS_DAYS = 62;

const houseIdList = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
      .map(Number),
  )
  .pipe(z.array(jsonIdSchema).min(1, 'houses.compareNone').max(6, 'houses.compareTooMany'));

/** A day (YYYY-MM-DD) or a moment (ms since 1970), read as its day in the installation's zone. */
const dayOrMoment = z
  .string()
  .regex(/^(\d{4}-\d{2}-\d{2}|\d{10,15})$/, 'houses.completenessBadDay')
  .optional();

/**
 * GET /api/houses/completeness: 1–6 houses, from and to days inclusive (the installation's zone;
 * the browser does not know it, so it may send moments); without them the last 7 days to today.
 */
export const completenessQuerySchema = z.object({
  houseIds: houseIdList,
  from: dayOrMoment,
  to: dayOrMoment,
});
export type CompletenessQuery = z.input<typeof completenessQuerySchema>;

export const completenessDaySchema = z.object({
  /** YYYY-MM-DD in the installation's zone. */
  day: z.string(),
  /** Readings stored for that day. */
  readings: z.number().int(),
  /** Readings the gateway's interval promised over the part of the day that counts. */
  expected: z.number().int(),
  /** readings / expected in percent, one decimal, at most 100; null when nothing was expected. */
  percent: z.number().nullable(),
});
export type CompletenessDay = z.infer<typeof completenessDaySchema>;

export const houseCompletenessSchema = z.object({
  houseId: z.number().int(),
  /** The gateway's reading interval; null: the house has no gateway (nothing is expected). */
  intervalSeconds: z.number().int().nullable(),
  days: z.array(completenessDaySchema),
});
export type HouseCompleteness = z.infer<typeof houseCompletenessSchema>;

export const completenessSchema = z.object({
  rows: z.array(houseCompletenessSchema),
  /** The share below which a day is reminded of (ROOST_COMPLETENESS_MIN_PERCENT). */
  minPercent: z.number(),
});
export type Completeness = z.infer<typeof completenessSchema>;
