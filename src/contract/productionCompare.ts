import { z } from 'zod';
import { flockSummarySchema } from './production';

/**
 * Daily Business: one flock compared with others by day of age (the house's previous flocks, or
 * the other houses' flocks of its farm placed nearest in time), with the breed-standard line.
 */

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** The KPIs a comparison can draw; the first four have a breed-standard line. */
export const COMPARE_SERIES = [
  'bodyWeightG',
  'feedPerBirdG',
  'livabilityPct',
  'henDayPct',
  'mortalityPct',
  'dailyGainG',
  'fcr',
  'feedPerEggKg',
  'feedPerDozenKg',
  'waterFeedRatio',
  'eggMassG',
  'epef',
] as const;
export type CompareSeries = (typeof COMPARE_SERIES)[number];

/** Which standard line belongs to a series (null: the breed standard has none). */
export const STANDARD_OF: Record<
  CompareSeries,
  'bodyWeightG' | 'feedPerBirdG' | 'livabilityPct' | 'henDayPct' | null
> = {
  bodyWeightG: 'bodyWeightG',
  feedPerBirdG: 'feedPerBirdG',
  livabilityPct: 'livabilityPct',
  henDayPct: 'henDayPct',
  mortalityPct: null,
  dailyGainG: null,
  fcr: null,
  feedPerEggKg: null,
  feedPerDozenKg: null,
  waterFeedRatio: null,
  eggMassG: null,
  epef: null,
};

/** Compared with the house's previous flocks, or with the other houses of the farm. */
export const COMPARE_WITH = ['house', 'farm'] as const;
export type CompareWith = (typeof COMPARE_WITH)[number];

/** How many flocks a comparison draws besides the chosen one (a chart stays readable). */
export const COMPARE_MAX_OTHERS = 5;

export const flockCompareQuerySchema = z.object({
  flockId: id,
  with: z.enum(COMPARE_WITH).default('house'),
});

/** A flock's values by day of age (null where the day or the measurement is missing). */
export const compareLineSchema = z.object({
  flock: flockSummarySchema,
  ages: z.array(z.number().int()),
  values: z.record(z.enum(COMPARE_SERIES), z.array(z.number().nullable())),
});
export type CompareLine = z.infer<typeof compareLineSchema>;

export const flockCompareSchema = z.object({
  /** The chosen flock first, then the others, newest placement first. */
  lines: z.array(compareLineSchema),
  /** The chosen flock's breed standard by day of age. */
  standard: z.object({
    ages: z.array(z.number().int()),
    values: z.record(z.string(), z.array(z.number().nullable())),
  }),
});
export type FlockCompare = z.infer<typeof flockCompareSchema>;

/** The export formats of Daily Business (the files are made on the server). */
export const PRODUCTION_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
const exportFormat = z.enum(PRODUCTION_EXPORT_FORMATS).default('xlsx');

/** GET /api/production/kpi/export: one flock's KPIs by day as a file. */
export const kpiExportQuerySchema = z.object({ flockId: id, format: exportFormat });

/** GET /api/production/power/export: a house's or a farm's electricity of a day as a file. */
export const powerExportQuerySchema = z
  .object({
    houseId: id.optional(),
    farmId: id.optional(),
    day: z.iso.date('production.dateInvalid'),
    format: exportFormat,
  })
  .refine((q) => q.houseId !== undefined || q.farmId !== undefined, 'production.valueRequired');
