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
  kwh: z.number(),
  /** The highest hour of the month (an hour's kWh is its average kW). */
  peakKw: z.number(),
  /** Over the metered hours. */
  averageKw: z.number(),
  /** Null without a tariff. */
  cost: z.number().nullable(),
  byPeriod: z
    .object({ peak: periodFigures, flat: periodFigures, valley: periodFigures })
    .nullable(),
  /** kWh per bird housed on average over the month's recorded days; null without records. */
  kwhPerBird: z.number().nullable(),
  /** kWh per kg produced: eggs entered, or live weight gained between the month's weighings. */
  kwhPerKg: z.number().nullable(),
  /** The kg produced that `kwhPerKg` divides by. */
  producedKg: z.number().nullable(),
});
export type PowerMonth = z.infer<typeof powerMonthSchema>;

export const tariffQuerySchema = z.object({ orgId: id });
export const tariffAnswerSchema = z.object({
  orgId: z.number().int(),
  tariff: tariffSchema.nullable(),
});
export type TariffAnswer = z.infer<typeof tariffAnswerSchema>;
