import { describe, expect, it } from 'vitest';
import type { Tariff } from '../../src/contract/production';
import { powerDay } from '../../server/production/tariff';

// A common three-period tariff: valley 23:00–07:00, peak 08:00–11:00 and 18:00–22:00, flat
// otherwise.
const HOURS: Tariff['hours'] = Array.from({ length: 24 }, (_, h) =>
  h >= 23 || h < 7 ? 'valley' : (h >= 8 && h < 11) || (h >= 18 && h < 22) ? 'peak' : 'flat',
);
const TARIFF: Tariff = {
  hours: HOURS,
  prices: { peak: 1.2, flat: 0.7, valley: 0.3 },
  currency: 'CNY',
};

describe('time-of-use electricity cost', () => {
  it('a day of known hourly readings gives the hand-computed kWh and cost', () => {
    // 10 kWh every valley hour (8 h), 20 every flat hour (9 h), 30 every peak hour (7 h).
    const hourly = HOURS.map((p) => (p === 'valley' ? 10 : p === 'flat' ? 20 : 30));
    const day = powerDay(hourly, TARIFF);
    // 80 + 180 + 210 = 470 kWh; 80 × 0.3 + 180 × 0.7 + 210 × 1.2 = 24 + 126 + 252 = 402.
    expect(day.kwh).toBeCloseTo(470, 9);
    expect(day.cost).toBeCloseTo(402, 9);
    expect(day.byPeriod.valley).toEqual({ kwh: 80, cost: expect.closeTo(24, 9) });
    expect(day.byPeriod.flat.kwh).toBe(180);
    expect(day.byPeriod.peak.cost).toBeCloseTo(252, 9);
    expect(day.peakKw).toBe(30);
    expect(day.averageKw).toBeCloseTo(470 / 24, 9);
  });

  it('hours without a reading are neither counted nor billed', () => {
    const hourly: Array<number | null> = Array.from({ length: 24 }, () => null);
    hourly[9] = 12; // peak
    hourly[3] = 4; // valley
    const day = powerDay(hourly, TARIFF);
    expect(day.kwh).toBe(16);
    expect(day.cost).toBeCloseTo(12 * 1.2 + 4 * 0.3, 9);
    expect(day.averageKw).toBe(8);
  });
});
