import { z } from 'zod';
import { TARIFF_CURRENCIES } from './production';

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * One day's losses of the scope's flocks as their records say, beside the breed standard for
 * the same flocks at the same ages. Only flocks whose day is entered count: a house that has not
 * entered its day yet is not a house without deaths. Null percentages where no day is entered.
 */
export const wallMortalitySchema = z.object({
  day: isoDay,
  /** Deaths and culls entered for the day. */
  losses: z.number().int().nonnegative(),
  /** Birds alive at the day's start in the flocks whose day is entered. */
  alive: z.number().int().nonnegative(),
  pct: z.number().nullable(),
  /** The breeds' standard daily mortality for those flocks at their ages, weighted by birds. */
  standardPct: z.number().nullable(),
  /** Houses with an open flock, and how many of them entered the day. */
  flockHouses: z.number().int().nonnegative(),
  enteredHouses: z.number().int().nonnegative(),
});
export type WallMortality = z.infer<typeof wallMortalitySchema>;

/** A measure today so far beside yesterday up to the same hour: like for like, never a half day against a whole one. */
const soFarSchema = z.object({
  today: z.number().nullable(),
  yesterday: z.number().nullable(),
});

/**
 * GET /api/wall/production: the day's production and power of the wall's scope. Days are the
 * installation's (ROOST_TIMEZONE), as on every production page. Feed is entered once a day, so
 * it compares yesterday's whole day with the day before; water and electricity are metered, so
 * they compare today so far with yesterday up to the same hour.
 */
export const wallProductionSchema = z.object({
  day: isoDay,
  /** The hour under way (0–23) at which "so far" stops. */
  hour: z.number().int().min(0).max(23),
  mortality: z.object({ today: wallMortalitySchema, yesterday: wallMortalitySchema }),
  /** kg entered for yesterday and for the day before, and how many houses entered each. */
  feedKg: z.object({
    yesterday: z.number().nullable(),
    dayBefore: z.number().nullable(),
    houses: z.number().int().nonnegative(),
  }),
  waterL: soFarSchema,
  energyKwh: soFarSchema,
  /**
   * Today's electricity cost under each organisation's time-of-use tariff, in its currency;
   * null when no organisation of the scope has a tariff, or they bill in different currencies
   * (a sum of yuan and euros is no figure).
   */
  cost: z.object({ amount: z.number(), currency: z.enum(TARIFF_CURRENCIES) }).nullable(),
});
export type WallProduction = z.infer<typeof wallProductionSchema>;

/** Today's figure against yesterday's as a signed percentage; null when either is missing or yesterday was 0. */
export function changePct(today: number | null, yesterday: number | null): number | null {
  if (today === null || yesterday === null || yesterday === 0) return null;
  return ((today - yesterday) / yesterday) * 100;
}
