import { z } from 'zod';
import { tariffSchema } from './production';

/**
 * Daily Business, power by month and the tariff page: a house's or a farm's electricity day by
 * day with its time-of-use cost, energy per bird and per kg produced; reading an organisation's
 * tariff.
 */

const id = z.coerce.number().int().positive().max(2_147_483_647);
const isoMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'production.dateInvalid');

export const powerMonthQuerySchema = z
  .object({ houseId: id.optional(), farmId: id.optional(), month: isoMonth })
  .refine((q) => q.houseId !== undefined || q.farmId !== undefined, 'production.valueRequired');

const periodFigures = z.object({ kwh: z.number(), cost: z.number() });

export const powerMonthDaySchema = z.object({
  day: z.string(),
  /** Null where nothing was metered that day. */
  kwh: z.number().nullable(),
  cost: z.number().nullable(),
  peakKw: z.number().nullable(),
});
export type PowerMonthDay = z.infer<typeof powerMonthDaySchema>;

export const powerMonthSchema = z.object({
  month: z.string(),
  days: z.array(powerMonthDaySchema),
  /**
   * Today, when it is in the month: its figures so far are in `days` and the totals, and charts
   * leave it out (an unfinished day would read as a drop).
   */
  runningDay: z.string().nullable(),
  /** Null when nothing was metered in the month. */
  kwh: z.number().nullable(),
  /** The highest finished hour of the month (an hour's kWh is its average kW). */
  peakKw: z.number().nullable(),
  /** Over the finished metered hours. */
  averageKw: z.number().nullable(),
  /** Null without a tariff or without a metered hour. */
  cost: z.number().nullable(),
  /** Null, like the cost, without a tariff or without a metered hour. */
  byPeriod: z
    .object({ peak: periodFigures, flat: periodFigures, valley: periodFigures })
    .nullable(),
  /**
   * kWh per bird: the electricity of the houses on their flocks' recorded, metered days over the
   * birds housed on average on those days; null without such days.
   */
  kwhPerBird: z.number().nullable(),
  /**
   * kWh per kg produced, numerator and denominator over the same days: for meat birds the
   * electricity of the flock's house on the days after its first weighing of the month up to its
   * last, over the live weight gained between them; for layers the electricity of the days with
   * egg mass entered, over those eggs. A flock with an unmetered day in its window is left out.
   */
  kwhPerKg: z.number().nullable(),
  /** The kg produced that `kwhPerKg` divides by. */
  producedKg: z.number().nullable(),
  /** The kWh of the same days that `kwhPerKg` divides. */
  producedKwh: z.number().nullable(),
});
export type PowerMonth = z.infer<typeof powerMonthSchema>;

export const tariffQuerySchema = z.object({ orgId: id });
export const tariffAnswerSchema = z.object({
  orgId: z.number().int(),
  tariff: tariffSchema.nullable(),
});
export type TariffAnswer = z.infer<typeof tariffAnswerSchema>;
