import type { Tariff, TariffPeriod } from '../../src/contract/production';

/**
 * Electricity cost under a time-of-use tariff: each hour of the day belongs to a period (peak,
 * flat, valley) billed at its price, as Chinese and many other grids bill it.
 */
export interface PowerDay {
  /** Null when no hour was metered: nothing known is not 0 kWh. */
  kwh: number | null;
  cost: number | null;
  /** Over the finished hours only: a running hour's kWh so far is not its power. */
  peakKw: number | null;
  averageKw: number | null;
  /** kWh and count of the finished metered hours, which the averages divide. */
  finishedKwh: number;
  finishedHours: number;
  byPeriod: Record<TariffPeriod, { kwh: number; cost: number }>;
}

/**
 * `hourlyKwh[h]` is the energy of hour h of the day (null where nothing was metered);
 * `runningHour` the hour still under way when the day is today (null otherwise).
 */
export function powerDay(
  hourlyKwh: ReadonlyArray<number | null>,
  tariff: Tariff,
  runningHour: number | null = null,
): PowerDay {
  const byPeriod: PowerDay['byPeriod'] = {
    peak: { kwh: 0, cost: 0 },
    flat: { kwh: 0, cost: 0 },
    valley: { kwh: 0, cost: 0 },
  };
  let kwh = 0;
  let metered = 0;
  let finishedKwh = 0;
  let finishedHours = 0;
  let peakKw: number | null = null;
  hourlyKwh.forEach((value, hour) => {
    if (value === null) return;
    const period = tariff.hours[hour] ?? 'flat';
    byPeriod[period].kwh += value;
    byPeriod[period].cost += value * tariff.prices[period];
    kwh += value;
    metered += 1;
    if (hour === runningHour) return;
    finishedKwh += value;
    finishedHours += 1;
    // An hour's kWh is its average power in kW.
    peakKw = Math.max(peakKw ?? 0, value);
  });
  const cost = byPeriod.peak.cost + byPeriod.flat.cost + byPeriod.valley.cost;
  return {
    kwh: metered > 0 ? kwh : null,
    cost: metered > 0 ? cost : null,
    peakKw,
    averageKw: finishedHours > 0 ? finishedKwh / finishedHours : null,
    finishedKwh,
    finishedHours,
    byPeriod,
  };
}
