import { z } from 'zod';
import { idSchema } from './ids';
import { houseLiveSchema } from './live';
import { pagedSchema } from './paged';

/** One house as the overview lists it: what it is (static) and how it is (live). */
export const houseOverviewSchema = z.object({
  houseId: z.number().int(),
  houseName: z.string(),
  farmId: z.number().int(),
  farmName: z.string(),
  provinceName: z.string().nullable(),
  networkId: z.string().nullable(),
  gatewayType: z.number().int().nullable(),
  breedName: z.string().nullable(),
  /** Age of the open flock in days; null for an empty house. */
  ageDays: z.number().int().nullable(),
  headCount: z.number().int().nullable(),
  live: houseLiveSchema,
});
export type HouseOverview = z.infer<typeof houseOverviewSchema>;

/** GET /api/overview/listOverview/ answer: every house of the caller's scope. */
export const overviewListSchema = pagedSchema(houseOverviewSchema);

/** GET /api/overview/listOverview/ query. */
export const overviewQuerySchema = z.object({
  farmId: idSchema.optional(),
  houseId: idSchema.optional(),
});

export const TREND_GRANULARITIES = ['minute', 'hour', 'day', 'month'] as const;
export type TrendGranularity = (typeof TREND_GRANULARITIES)[number];

/** More points than this per house and metric are refused: a chart cannot show them anyway. */
export const MAX_TREND_POINTS = 5_000;

/** The fields of a trend query, for the queries built on it (exports). */
export const trendQueryFields = z.object({
  houseId: idSchema,
  metrics: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(40)).min(1, 'trend.metricsRequired').max(12)),
  from: z.coerce.number().int().positive(),
  to: z.coerce.number().int().positive(),
  granularity: z.enum(TREND_GRANULARITIES),
});

/** The window must run forwards; shared by every query with `from` and `to`. */
export const forwardRange = (q: { from: number; to: number }) => q.from < q.to;

/** GET /api/trend/house query. */
export const trendQuerySchema = trendQueryFields.refine(forwardRange, {
  message: 'trend.badRange',
  path: ['from'],
});
export type TrendQuery = z.input<typeof trendQuerySchema>;

/**
 * Columnar: `times[i]` is the start of bucket i (ms); each metric has avg (a level's mean, a
 * counter's total), min and max per bucket, null where the bucket has no reading.
 */
export const trendSchema = z.object({
  houseId: z.number().int(),
  granularity: z.enum(TREND_GRANULARITIES),
  times: z.array(z.number()),
  series: z.record(
    z.string(),
    z.object({
      avg: z.array(z.number().nullable()),
      min: z.array(z.number().nullable()),
      max: z.array(z.number().nullable()),
    }),
  ),
});
export type Trend = z.infer<typeof trendSchema>;
