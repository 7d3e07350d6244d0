import { z } from 'zod';
import { ALARM_CAUSES, type AlarmCause } from './alarms';

/**
 * Two sets of alarm limits meet in a house: the controller's own (its alarm parameters, which
 * sound the alarm in the house and show in House Setting) and Roost's (the breed's target for
 * the flock's age with a band, or the house's own limits), which raise Roost's alarms and send
 * notifications. By default Roost keeps its own; a house can follow its controller instead, for
 * the causes the controller has a limit for.
 */

/** The controller's alarm parameter behind each of Roost's causes it can stand in for. */
export const CONTROLLER_ALARM_PARAM = {
  temperatureHigh: 'alarm_temp_high',
  temperatureLow: 'alarm_temp_low',
  humidityHigh: 'alarm_humidity_high',
  humidityLow: 'alarm_humidity_low',
  co2High: 'alarm_co2_high',
  nh3High: 'alarm_nh3_high',
} as const satisfies Partial<Record<AlarmCause, string>>;
// Static pressure is left out on purpose: controllers give its limits as magnitudes (0…100 Pa)
// while Roost reads signed values, and which sign a house runs at differs between houses.

/** Where the limit in force comes from. */
export const LIMIT_BASES = ['breed', 'house', 'controller', 'default'] as const;
export type LimitBasis = (typeof LIMIT_BASES)[number];

export const limitInForceSchema = z.object({
  cause: z.enum(ALARM_CAUSES),
  metric: z.string(),
  /** Roost raises its alarm past this value … */
  raise: z.number(),
  /** … and clears it back past this one. */
  clear: z.number(),
  basis: z.enum(LIMIT_BASES),
  /** For a band around the breed's target: the target now and the band's width. */
  target: z.number().nullable(),
  band: z.number().nullable(),
});
export type LimitInForce = z.infer<typeof limitInForceSchema>;

/** GET /alarm/limitsInForce: the limits Roost raises its alarms at in a house, now. */
export const limitsInForceSchema = z.object({
  houseId: z.number().int(),
  followController: z.boolean(),
  /** Whether the controller has reported its alarm parameters at all. */
  controllerReported: z.boolean(),
  limits: z.array(limitInForceSchema),
});
export type LimitsInForce = z.infer<typeof limitsInForceSchema>;
