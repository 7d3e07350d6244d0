import type { Tariff, TariffPeriod } from '../../src/contract/production';

/**
 * Electricity cost under a time-of-use tariff: each hour of the day belongs to a period (peak,
 * flat, valley) billed at its price, as Chinese and many other grids bill it.
 */
export interface PowerDay {
  kwh: number;
  cost: number;
  peakKw: number;
  averageKw: number;
  byPeriod: Record<TariffPeriod, { kwh: number; cost: number }>;
}

/** `hourlyKwh[h]` is the energy of hour h of the day (null where nothing was metered). */
export function powerDay(hourlyKwh: ReadonlyArray<number | null>, tariff: Tariff): PowerDay {
  const byPeriod: PowerDay['byPeriod'] = {
    peak: { kwh: 0, cost: 0 },
    flat: { kwh: 0, cost: 0 },
    valley: { kwh: 0, cost: 0 },
  };
  let kwh = 0;
  let peakKw = 0;
  let hours = 0;
  hourlyKwh.forEach((value, hour) => {
    if (value === null) return;
    const period = tariff.hours[hour] ?? 'flat';
    byPeriod[period].kwh += value;
    byPeriod[period].cost += value * tariff.prices[period];
    kwh += value;
    hours += 1;
    // An hour's kWh is its average power in kW.
    peakKw = Math.max(peakKw, value);
  });
  const cost = byPeriod.peak.cost + byPeriod.flat.cost + byPeriod.valley.cost;
  return { kwh, cost, peakKw, averageKw: hours > 0 ? kwh / hours : 0, byPeriod };
}
