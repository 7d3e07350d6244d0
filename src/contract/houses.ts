import { z } from 'zod';
import { jsonIdSchema } from './ids';
import { TREND_GRANULARITIES, forwardRange, trendQueryFields } from './overview';

/** A comparison holds at least one and at most six houses. */
export const MAX_COMPARED_HOUSES = 6;

const idList = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
      .map(Number),
  )
  .pipe(
    z
      .array(jsonIdSchema)
      .min(1, 'houses.compareNone')
      .max(MAX_COMPARED_HOUSES, 'houses.compareTooMany'),
  );

/**
 * The comparison's x axis: `time` (bucket start), or `age` (a Roost addition): each house's
 * points placed at the day of age of its flock, so flocks placed on different dates line up,
 * with the breed's standard curve beside them.
 */
export const COMPARE_ALIGNS = ['time', 'age'] as const;
export type CompareAlign = (typeof COMPARE_ALIGNS)[number];

/**
 * Metrics a breed configures per day of age (breed_targets columns): only these can draw a
 * breed standard. Body weight, feed and water per head are per bird, not what a house sensor
 * reports, so they have no metric to compare against.
 */
export const BREED_STANDARD_OF: Readonly<Record<string, string>> = {
  temperature: 'temperature',
  temperature_target: 'temperature',
  humidity: 'humidity',
  co2: 'co2',
  light: 'light_intensity',
};

const compareFields = z.object({
  houseIds: idList,
  metric: z.string().min(1).max(40),
  from: z.coerce.number().int().positive(),
  to: z.coerce.number().int().positive(),
  granularity: z.enum(TREND_GRANULARITIES),
  align: z.enum(COMPARE_ALIGNS).default('time'),
});

/** GET /api/houses/compare (and its export): one metric of 1–6 houses over one window. */
export const compareQuerySchema = compareFields.refine(forwardRange, {
  message: 'trend.badRange',
  path: ['from'],
});
export type CompareQuery = z.input<typeof compareQuerySchema>;

export const comparedHouseSchema = z.object({
  houseId: z.number().int(),
  houseName: z.string(),
  farmName: z.string(),
  /** Bucket starts (ms) and the metric's value per bucket (null: no reading). */
  times: z.array(z.number()),
  values: z.array(z.number().nullable()),
  /**
   * Aligned by age only: the flock's day of age at each bucket start (fractional below a day:
   * 12.25 is 06:00 of day 12). Buckets outside the flock's stay are left out of all three.
   */
  ages: z.array(z.number()).optional(),
  /** Aligned by age: the breed of the flock shown (null: no flock or no breed). */
  breedId: z.number().int().nullable().optional(),
});
export type ComparedHouse = z.infer<typeof comparedHouseSchema>;

/** A breed's configured value of the metric per day of age, over the ages shown. */
export const breedStandardSchema = z.object({
  breedId: z.number().int(),
  breedName: z.string(),
  ages: z.array(z.number().int()),
  values: z.array(z.number()),
});
export type BreedStandard = z.infer<typeof breedStandardSchema>;

export const comparisonSchema = z.object({
  metric: z.string(),
  granularity: z.enum(TREND_GRANULARITIES),
  align: z.enum(COMPARE_ALIGNS).default('time'),
  houses: z.array(comparedHouseSchema),
  /** Aligned by age: one standard per breed among the houses' flocks that configures it. */
  standards: z.array(breedStandardSchema).default([]),
});
export type Comparison = z.infer<typeof comparisonSchema>;

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** GET /api/houses/compare/export: the comparison's table as a file. */
export const compareExportQuerySchema = compareFields
  .extend({ format: z.enum(EXPORT_FORMATS) })
  .refine(forwardRange, { message: 'trend.badRange', path: ['from'] });

/** GET /api/houses/trend/export: one house's trend (several metrics) as a file. */
export const trendExportQuerySchema = trendQueryFields
  .extend({
    format: z.enum(EXPORT_FORMATS),
    /** `all`: every extra parameter of the house's terminal devices beside `metrics`. */
    extras: z.enum(['all']).optional(),
  })
  .refine(forwardRange, { message: 'trend.badRange', path: ['from'] });

/** An export above this many rows warns 'Too much data to export please wait'. */
export const EXPORT_WARN_ROWS = 15_000;
