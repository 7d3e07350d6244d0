import type { AlarmCause } from '../../src/contract/alarms';
import { CONTROLLER_ALARM_PARAM, type LimitBasis } from '../../src/contract/alarmLimits';
import type { HouseRules } from './rules';

/**
 * Defaults when neither the breed nor the house says otherwise. The temperature band is wide
 * enough that the demo's summer heat (up to ~3 °C over target) never alarms, yet catches a
 * stopped fan within minutes.
 */
export const DEFAULT_LIMITS = {
  temperatureBandHigh: 5,
  temperatureBandLow: 5,
  /** An alarm at target + 5 °C clears below target + 4 °C. */
  temperatureHysteresis: 1,
  humidityBand: 25,
  humidityMin: 30,
  humidityMax: 90,
  humidityHysteresis: 5,
  /** The breed's CO2 value is a working level; alarms start this much higher. */
  co2BreedFactor: 1.5,
  co2Max: 5_000,
  nh3Max: 30,
  pressureMin: -60,
  pressureMax: 10,
  pressureHysteresis: 5,
  /** CO2 and NH3 clear this fraction under their limit. */
  airHysteresisFraction: 0.1,
  minDurationSeconds: 60,
  clearHoldSeconds: 120,
  stuckMinutes: 180,
} as const;

export const keyOf = (cause: string, subject: string) => `${cause}|${subject}`;

export interface Threshold {
  cause: AlarmCause;
  metric: string;
  key: string;
  above: boolean;
  raise: number;
  clear: number;
  /** Where `raise` comes from, and for a band around the breed's target, the target and band. */
  basis: LimitBasis;
  target: number | null;
  band: number | null;
}

const thresholdCache = new WeakMap<HouseRules, Threshold[]>();

/** thresholdsOf, worked out once per house context rather than once per reading. */
export function cachedThresholdsOf(rules: HouseRules): Threshold[] {
  let list = thresholdCache.get(rules);
  if (!list) thresholdCache.set(rules, (list = thresholdsOf(rules)));
  return list;
}

/**
 * The thresholds of a house now: the house's own limits over the breed's targets over Roost's
 * defaults, or, for a house that follows its controller, the controller's alarm parameters
 * where it has reported one.
 */
export function thresholdsOf(rules: HouseRules): Threshold[] {
  const l = rules.limits;
  const d = DEFAULT_LIMITS;
  const controller = l.followController ? rules.controller : null;
  const list: Threshold[] = [];
  const add = (
    cause: AlarmCause,
    metric: string,
    above: boolean,
    gap: number | ((raise: number) => number),
    own: { raise: number; basis: LimitBasis; target?: number; band?: number } | null,
  ) => {
    const param = CONTROLLER_ALARM_PARAM[cause as keyof typeof CONTROLLER_ALARM_PARAM];
    const fromController = param === undefined ? undefined : controller?.[param];
    const chosen =
      fromController === undefined ? own : { raise: fromController, basis: 'controller' as const };
    if (!chosen) return;
    const raise = chosen.raise;
    const width = typeof gap === 'number' ? gap : gap(raise);
    list.push({
      cause,
      metric,
      key: keyOf(cause, metric),
      above,
      raise,
      clear: above ? raise - width : raise + width,
      basis: chosen.basis,
      target: 'target' in chosen ? (chosen.target ?? null) : null,
      band: 'band' in chosen ? (chosen.band ?? null) : null,
    });
  };
  const target = rules.targetTemperature;
  const tGap = l.temperatureHysteresis ?? d.temperatureHysteresis;
  for (const [cause, above, own, fallback] of [
    ['temperatureHigh', true, l.temperatureBandHigh, d.temperatureBandHigh],
    ['temperatureLow', false, l.temperatureBandLow, d.temperatureBandLow],
  ] as const) {
    const band = own ?? fallback;
    const basis: LimitBasis = own !== undefined ? 'house' : 'breed';
    // Without a flock there is no target to band around; a controller's limit still stands.
    add(
      cause,
      'temperature',
      above,
      tGap,
      target === null
        ? null
        : { raise: above ? target + band : target - band, basis, target, band },
    );
  }
  const breedH = rules.breedHumidity;
  const humidity = (own: number | undefined, band: number, fallback: number, above: boolean) =>
    own !== undefined
      ? { raise: own, basis: 'house' as const }
      : breedH === null
        ? { raise: fallback, basis: 'default' as const }
        : {
            raise: above ? breedH + band : breedH - band,
            basis: 'breed' as const,
            target: breedH,
            band,
          };
  const hMax = humidity(l.humidityMax, d.humidityBand, d.humidityMax, true);
  const hMin = humidity(l.humidityMin, d.humidityBand, d.humidityMin, false);
  add('humidityHigh', 'humidity', true, d.humidityHysteresis, {
    ...hMax,
    raise: Math.min(hMax.raise, 100),
  });
  add('humidityLow', 'humidity', false, d.humidityHysteresis, {
    ...hMin,
    raise: Math.max(hMin.raise, 0),
  });
  const co2 =
    l.co2Max !== undefined
      ? { raise: l.co2Max, basis: 'house' as const }
      : rules.breedCo2 === null
        ? { raise: d.co2Max, basis: 'default' as const }
        : {
            raise: rules.breedCo2 * d.co2BreedFactor,
            basis: 'breed' as const,
            target: rules.breedCo2,
          };
  const airGap = (raise: number) => raise * d.airHysteresisFraction;
  add('co2High', 'co2', true, airGap, co2);
  add('nh3High', 'nh3', true, airGap, {
    raise: l.nh3Max ?? d.nh3Max,
    basis: l.nh3Max !== undefined ? 'house' : 'default',
  });
  add('pressureHigh', 'pressure', true, d.pressureHysteresis, {
    raise: l.pressureMax ?? d.pressureMax,
    basis: l.pressureMax !== undefined ? 'house' : 'default',
  });
  add('pressureLow', 'pressure', false, d.pressureHysteresis, {
    raise: l.pressureMin ?? d.pressureMin,
    basis: l.pressureMin !== undefined ? 'house' : 'default',
  });
  return list;
}
