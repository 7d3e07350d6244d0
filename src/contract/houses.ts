import { z } from 'zod';
import { TREND_GRANULARITIES, forwardRange, trendQueryFields } from './overview';

/** Spec §5/§9: a comparison holds at least one and at most six houses. */
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
      .array(z.number().int().positive())
      .min(1, 'houses.compareNone')
      .max(MAX_COMPARED_HOUSES, 'houses.compareTooMany'),
  );

/** GET /api/houses/compare (and its export): one metric of 1–6 houses over one window. */
export const compareQuerySchema = z
  .object({
    houseIds: idList,
    metric: z.string().min(1).max(40),
    from: z.coerce.number().int().positive(),
    to: z.coerce.number().int().positive(),
    granularity: z.enum(TREND_GRANULARITIES),
  })
  .refine(forwardRange, { message: 'trend.badRange', path: ['from'] });
export type CompareQuery = z.input<typeof compareQuerySchema>;

export const comparedHouseSchema = z.object({
  houseId: z.number().int(),
  houseName: z.string(),
  farmName: z.string(),
  /** Bucket starts (ms) and the metric's value per bucket (null: no reading). */
  times: z.array(z.number()),
  values: z.array(z.number().nullable()),
});
export type ComparedHouse = z.infer<typeof comparedHouseSchema>;

export const comparisonSchema = z.object({
  metric: z.string(),
  granularity: z.enum(TREND_GRANULARITIES),
  houses: z.array(comparedHouseSchema),
});
export type Comparison = z.infer<typeof comparisonSchema>;

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** GET /api/houses/compare/export: the comparison's table as a file. */
export const compareExportQuerySchema = z
  .object({
    houseIds: idList,
    metric: z.string().min(1).max(40),
    from: z.coerce.number().int().positive(),
    to: z.coerce.number().int().positive(),
    granularity: z.enum(TREND_GRANULARITIES),
    format: z.enum(EXPORT_FORMATS),
  })
  .refine(forwardRange, { message: 'trend.badRange', path: ['from'] });

/** GET /api/houses/trend/export: one house's trend (several metrics) as a file. */
export const trendExportQuerySchema = trendQueryFields
  .extend({ format: z.enum(EXPORT_FORMATS) })
  .refine(forwardRange, { message: 'trend.badRange', path: ['from'] });

/** Spec §5/§9: an export above this many rows warns 'Too much data to export please wait'. */
export const EXPORT_WARN_ROWS = 15_000;
