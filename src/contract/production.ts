import { z } from 'zod';

/**
 * Daily Business: what a house's people enter for a day of their flock, the flocks' records and
 * the KPIs computed from them against the breed standard, the time-of-use tariff.
 */

const id = z.coerce.number().int().positive().max(2_147_483_647);
const isoDate = z.iso.date('production.dateInvalid');
const isoMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'production.dateInvalid');

/** A value the farmer must enter: empty is refused with the product's own words. */
const required = (max: number, integer = false) => {
  const n = z.number({ error: 'production.valueRequired' });
  return (integer ? n.int('production.valueInvalid') : n)
    .min(0, 'production.valueInvalid')
    .max(max, 'production.valueInvalid');
};
/** A value measured only some days: null when it was not. */
const optional = (max: number, integer = false) =>
  z
    .number({ error: 'production.valueInvalid' })
    .min(0, 'production.valueInvalid')
    .max(max, 'production.valueInvalid')
    .refine((v) => !integer || Number.isInteger(v), 'production.valueInvalid')
    .nullable()
    .default(null);

/** The day's values, in the order the grid shows them. */
export const DAY_FIELDS = [
  'deathsAm',
  'deathsPm',
  'cullsAm',
  'cullsPm',
  'feedKg',
  'waterL',
  'eggs',
  'eggKg',
  'bodyWeightG',
  'uniformity',
] as const;
export type DayField = (typeof DAY_FIELDS)[number];

/** Deaths, culls and feed are entered every day; the rest only when measured. */
export const REQUIRED_DAY_FIELDS: readonly DayField[] = [
  'deathsAm',
  'deathsPm',
  'cullsAm',
  'cullsPm',
  'feedKg',
];

const dayValues = {
  deathsAm: required(1_000_000, true),
  deathsPm: required(1_000_000, true),
  cullsAm: required(1_000_000, true),
  cullsPm: required(1_000_000, true),
  feedKg: required(1_000_000),
  waterL: optional(10_000_000),
  eggs: optional(10_000_000, true),
  eggKg: optional(1_000_000),
  bodyWeightG: optional(20_000),
  uniformity: optional(100),
  note: z.string().max(500, 'production.valueInvalid').default(''),
};

export const dayRecordInputSchema = z.object({ houseId: id, day: isoDate, ...dayValues });
export type DayRecordInput = z.input<typeof dayRecordInputSchema>;

/** One save of the farm grid: every house's row of one day at once, in one transaction. */
export const saveDaySchema = z.object({
  records: z.array(dayRecordInputSchema).min(1, 'production.valueRequired').max(500),
});

export const dayRecordSchema = z.object({
  flockId: z.number().int(),
  day: z.string(),
  deathsAm: z.number(),
  deathsPm: z.number(),
  cullsAm: z.number(),
  cullsPm: z.number(),
  feedKg: z.number(),
  waterL: z.number().nullable(),
  eggs: z.number().nullable(),
  eggKg: z.number().nullable(),
  bodyWeightG: z.number().nullable(),
  uniformity: z.number().nullable(),
  note: z.string(),
});
export type DayRecord = z.infer<typeof dayRecordSchema>;

export const farmDayQuerySchema = z.object({ farmId: id, day: isoDate });
export const houseMonthQuerySchema = z.object({ houseId: id, month: isoMonth });
export const houseQuerySchema = z.object({ houseId: id });
/** One flock's KPIs: by its id, or the newest flock of a house. */
export const kpiQuerySchema = z
  .object({ flockId: id.optional(), houseId: id.optional() })
  .refine((q) => q.flockId !== undefined || q.houseId !== undefined, 'production.valueRequired');

/** One house's row of the farm's day grid. */
export const farmDayRowSchema = z.object({
  houseId: z.number().int(),
  houseName: z.string(),
  flockId: z.number().int().nullable(),
  ageDay: z.number().int().nullable(),
  layer: z.boolean(),
  record: dayRecordSchema.nullable(),
});
export const farmDaySchema = z.object({ day: z.string(), rows: z.array(farmDayRowSchema) });
export type FarmDay = z.infer<typeof farmDaySchema>;
export type FarmDayRow = z.infer<typeof farmDayRowSchema>;

/** A house's month: each day with its flock's age and whether it is still missing. */
export const monthDaySchema = z.object({
  day: z.string(),
  flockId: z.number().int().nullable(),
  ageDay: z.number().int().nullable(),
  record: dayRecordSchema.nullable(),
  /** A day of a flock, today or before, with nothing entered. */
  missing: z.boolean(),
});
export const houseMonthSchema = z.object({
  houseId: z.number().int(),
  month: z.string(),
  days: z.array(monthDaySchema),
});
export type HouseMonth = z.infer<typeof houseMonthSchema>;
export type MonthDay = z.infer<typeof monthDaySchema>;

export const flockSummarySchema = z.object({
  id: z.number().int(),
  houseId: z.number().int(),
  houseName: z.string(),
  farmName: z.string(),
  breedName: z.string().nullable(),
  placedOn: z.string(),
  closedOn: z.string().nullable(),
  ageAtPlacement: z.number().int(),
  headCount: z.number().int(),
  origin: z.string(),
  depletedCount: z.number().nullable(),
  catchWeightKg: z.number().nullable(),
  layer: z.boolean(),
});
export type FlockSummary = z.infer<typeof flockSummarySchema>;
export const flockListSchema = z.object({ rows: z.array(flockSummarySchema) });

/** KPIs of one day of age; null where the day or the measurement is missing. */
export const kpiDaySchema = z.object({
  day: z.string(),
  ageDay: z.number().int(),
  recorded: z.boolean(),
  alive: z.number().nullable(),
  mortalityPct: z.number().nullable(),
  livabilityPct: z.number().nullable(),
  bodyWeightG: z.number().nullable(),
  dailyGainG: z.number().nullable(),
  feedPerBirdG: z.number().nullable(),
  /** Broilers: feed to date over the live weight standing (null for layers, see feedPerEggKg). */
  fcr: z.number().nullable(),
  /** Layers: the day's feed over the day's egg mass, kg per kg (料蛋比). */
  feedPerEggKg: z.number().nullable(),
  /** Layers: the day's feed per dozen eggs laid, kg. */
  feedPerDozenKg: z.number().nullable(),
  /** Layers: the eggs entered for the day, kg. */
  eggKg: z.number().nullable(),
  /** Entered or metered water of the day, litres. */
  waterL: z.number().nullable(),
  waterFeedRatio: z.number().nullable(),
  epef: z.number().nullable(),
  henDayPct: z.number().nullable(),
  eggMassG: z.number().nullable(),
  energyPerBirdKwh: z.number().nullable(),
  standard: z.object({
    bodyWeightG: z.number().nullable(),
    feedPerBirdG: z.number().nullable(),
    waterPerBirdG: z.number().nullable(),
    henDayPct: z.number().nullable(),
    livabilityPct: z.number().nullable(),
  }),
});
export type KpiDay = z.infer<typeof kpiDaySchema>;

export const flockKpisSchema = z.object({
  flock: flockSummarySchema,
  days: z.array(kpiDaySchema),
  /** The flock to date: the last recorded day's cumulative figures. */
  toDate: z.object({
    recordedDays: z.number().int(),
    missingDays: z.number().int(),
    alive: z.number(),
    mortalityPct: z.number(),
    feedKg: z.number(),
    fcr: z.number().nullable(),
    /** Layers: feed of the days with egg mass entered over that egg mass. */
    feedPerEggKg: z.number().nullable(),
    /** Layers: feed of the days with eggs counted per dozen of those eggs. */
    feedPerDozenKg: z.number().nullable(),
    epef: z.number().nullable(),
    energyKwh: z.number().nullable(),
  }),
});
export type FlockKpis = z.infer<typeof flockKpisSchema>;

/** What a flock's feed is measured against: live weight (broilers), egg mass or dozens (layers). */
export type FeedMeasure = 'fcr' | 'feedPerEggKg' | 'feedPerDozenKg';

/**
 * The feed KPI a flock's managers read: broilers the FCR (feed over live weight); layers feed
 * per kg of eggs, or per dozen eggs when their records count eggs but never weigh them (a
 * flock's table keeps one measure, never a mix of the two by day).
 */
export function feedMeasureOf(kpis: {
  flock: { layer: boolean };
  toDate: Pick<FlockKpis['toDate'], 'feedPerEggKg' | 'feedPerDozenKg'>;
}): FeedMeasure {
  if (!kpis.flock.layer) return 'fcr';
  const { feedPerEggKg, feedPerDozenKg } = kpis.toDate;
  return feedPerEggKg === null && feedPerDozenKg !== null ? 'feedPerDozenKg' : 'feedPerEggKg';
}

/** The KPI series a chart or a comparison can show, with their unit. */
export const KPI_SERIES = [
  'alive',
  'mortalityPct',
  'bodyWeightG',
  'dailyGainG',
  'feedPerBirdG',
  'fcr',
  'feedPerEggKg',
  'feedPerDozenKg',
  'waterFeedRatio',
  'epef',
  'henDayPct',
  'eggMassG',
] as const;
export type KpiSeries = (typeof KPI_SERIES)[number];

export const taskDecisionSchema = z.object({
  flockId: id,
  ageDay: z.number().int().min(0).max(2000),
  content: z.string().min(1).max(500),
  state: z.enum(['done', 'skipped']),
  note: z.string().max(500).default(''),
});

/** Time-of-use periods, as grids bill them. */
export const TARIFF_PERIODS = ['peak', 'flat', 'valley'] as const;
export type TariffPeriod = (typeof TARIFF_PERIODS)[number];
/**
 * The currencies a tariff's prices can be in (ISO 4217): the grids of the countries the product
 * is sold in. A price without its currency is a number nobody can pay.
 */
export const TARIFF_CURRENCIES = [
  'CNY',
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'KRW',
  'INR',
  'THB',
  'VND',
  'IDR',
  'PHP',
  'MYR',
  'BRL',
  'MXN',
  'RUB',
  'TRY',
  'ZAR',
  'AUD',
  'CAD',
] as const;
export type TariffCurrency = (typeof TARIFF_CURRENCIES)[number];
export const tariffSchema = z.object({
  hours: z.array(z.enum(TARIFF_PERIODS)).length(24, 'production.tariffHours'),
  prices: z.object({
    peak: z.number().min(0).max(100),
    flat: z.number().min(0).max(100),
    valley: z.number().min(0).max(100),
  }),
  /** Tariffs saved before the currency was asked were all in yuan. */
  currency: z.enum(TARIFF_CURRENCIES, 'production.valueInvalid').default('CNY'),
});
export type Tariff = z.infer<typeof tariffSchema>;

/** Saving an organisation's tariff. */
export const tariffInputSchema = tariffSchema.extend({ orgId: id });

export const powerQuerySchema = z
  .object({ houseId: id.optional(), farmId: id.optional(), day: isoDate })
  .refine((q) => q.houseId !== undefined || q.farmId !== undefined, 'production.valueRequired');

const periodFigures = z.object({ kwh: z.number(), cost: z.number() });
/**
 * A day of electricity: kWh per hour of the day (null where nothing was metered), the cost.
 * Totals, peak and average are null when nothing was metered (a dash, never 0.0).
 */
export const powerAnswerSchema = z.object({
  day: z.string(),
  hourly: z.array(z.number().nullable()).length(24),
  /**
   * The hour still running when the day is today in the installation's calendar: its kWh so far
   * is in `hourly` and the total, but not in peak and average, and charts leave it out (a
   * running hour would read as a drop).
   */
  runningHour: z.number().int().min(0).max(23).nullable(),
  kwh: z.number().nullable(),
  /** The highest finished hour. */
  peakKw: z.number().nullable(),
  /** Over the finished metered hours. */
  averageKw: z.number().nullable(),
  /** Null without a tariff or without a metered hour. */
  cost: z.number().nullable(),
  /** Null, like the cost, without a tariff or without a metered hour. */
  byPeriod: z
    .object({ peak: periodFigures, flat: periodFigures, valley: periodFigures })
    .nullable(),
  tariff: tariffSchema.nullable(),
});
export type PowerAnswer = z.infer<typeof powerAnswerSchema>;

/** GET /api/production/flocks: the flocks of a house or of a farm (of the whole scope without either). */
export const flocksQuerySchema = z.object({
  houseId: id.optional(),
  farmId: id.optional(),
});

/** POST /api/production/day answer: how many days were saved. */
export const savedDaysSchema = z.object({ saved: z.number().int().nonnegative() });

/** POST /api/production/task answer: the task's state as decided. */
export const taskDecidedSchema = taskDecisionSchema.pick({ state: true });
