import { z } from 'zod';
import { idSchema, jsonIdSchema } from './ids';

/**
 * The early warnings' limits: a breed's (the default of its flocks) and a house's override.
 * Every field is optional: a house's missing field falls back to its flock's breed, a breed's
 * to Roost's default, field by field, so a house can change one limit and keep the rest.
 */

export const EARLY_WARNINGS = [
  'waterDrop',
  'feedOffStandard',
  'weightGainSlow',
  'feedBinLow',
] as const;
export type EarlyWarning = (typeof EARLY_WARNINGS)[number];

/** Each warning's on/off switch and the limit field that sets it off. */
export const WARNING_LIMIT_FIELD = {
  waterDrop: 'waterDropPct',
  feedOffStandard: 'feedOffPct',
  weightGainSlow: 'gainRatioPct',
  feedBinLow: 'feedBinHours',
} as const satisfies Record<EarlyWarning, string>;
export type WarningLimitField = (typeof WARNING_LIMIT_FIELD)[EarlyWarning];

/** The range each limit may take: outside it a warning would be always on or never. */
export const WARNING_LIMIT_RANGE: Record<WarningLimitField, [number, number]> = {
  waterDropPct: [5, 90],
  feedOffPct: [2, 100],
  gainRatioPct: [5, 95],
  feedBinHours: [2, 96],
};

/** Each limit's unit, as the console writes it beside the field. */
export const WARNING_LIMIT_UNIT: Record<WarningLimitField, string> = {
  waterDropPct: '%',
  feedOffPct: '%',
  gainRatioPct: '%',
  feedBinHours: 'h',
};

const limit = (field: WarningLimitField) =>
  z
    .number('production.warningLimitRange')
    .finite('production.warningLimitRange')
    .min(WARNING_LIMIT_RANGE[field][0], 'production.warningLimitRange')
    .max(WARNING_LIMIT_RANGE[field][1], 'production.warningLimitRange')
    .optional();

export const warningLimitsSchema = z.strictObject(
  {
    waterDrop: z.boolean().optional(),
    /** Water down this much (%) from one day to the next raises. */
    waterDropPct: limit('waterDropPct'),
    feedOffStandard: z.boolean().optional(),
    /** Feed per bird this far (%) from the breed's standard raises. */
    feedOffPct: limit('feedOffPct'),
    weightGainSlow: z.boolean().optional(),
    /** The last 48 hours' gain at most this share (%) of the 48 hours before raises. */
    gainRatioPct: limit('gainRatioPct'),
    feedBinLow: z.boolean().optional(),
    /** The feed bin empty within this many hours (at its recent rate) raises. */
    feedBinHours: limit('feedBinHours'),
  },
  { error: 'production.warningLimitUnknown' },
);
export type WarningLimits = z.infer<typeof warningLimitsSchema>;
/** Every field set: what an evaluation uses. */
export type ResolvedWarningLimits = Required<WarningLimits>;

export const DEFAULT_WARNING_LIMITS: ResolvedWarningLimits = {
  waterDrop: true,
  waterDropPct: 25,
  feedOffStandard: true,
  feedOffPct: 15,
  weightGainSlow: true,
  gainRatioPct: 50,
  feedBinLow: true,
  feedBinHours: 24,
};

/** The house's field, else the breed's, else the default: field by field. */
export function resolveWarningLimits(
  breed: WarningLimits | null | undefined,
  house: WarningLimits | null | undefined,
): ResolvedWarningLimits {
  const out = { ...DEFAULT_WARNING_LIMITS } as Record<string, unknown>;
  for (const layer of [breed, house])
    for (const [key, value] of Object.entries(layer ?? {}))
      if (value !== undefined) out[key] = value;
  return out as ResolvedWarningLimits;
}

export const breedWarningQuerySchema = z.object({ breedId: idSchema });
export const breedWarningInputSchema = z.object({
  breedId: jsonIdSchema,
  limits: warningLimitsSchema,
});
/**
 * The extra parameter (a terminal device's own metric) that carries a feed bin's
 * level in kg: a house with a device reporting it gets the feed-running-out warning.
 */
export const FEED_BIN_CODE = 'feed_bin';

export const houseWarningQuerySchema = z.object({ houseId: idSchema });
export const houseWarningInputSchema = z.object({
  houseId: jsonIdSchema,
  limits: warningLimitsSchema,
});

/** A breed's own limits. */
export const breedWarningAnswerSchema = z.object({
  breedId: z.number().int(),
  limits: warningLimitsSchema,
});

/**
 * A house's override with what it falls back to: the breed of its open flock (null without a
 * flock) and the limits in force.
 */
export const houseWarningAnswerSchema = z.object({
  houseId: z.number().int(),
  limits: warningLimitsSchema,
  breed: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  inherited: warningLimitsSchema.required(),
  effective: warningLimitsSchema.required(),
});
export type HouseWarningAnswer = z.infer<typeof houseWarningAnswerSchema>;

/** GET /api/production/warnings/breed: a breed's own limits and the defaults they override. */
export const breedWarningReadSchema = breedWarningAnswerSchema.extend({
  defaults: warningLimitsSchema.required(),
});
