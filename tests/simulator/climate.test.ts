import { describe, expect, it } from 'vitest';
import { BROILER, LAYER } from '../../server/demo/breedStandards';
import {
  dailyShape,
  outdoorWeather,
  seasonalMean,
  solarHour,
  wetBulb,
} from '../../server/simulator/climate';
import {
  dailyMortality,
  intakeFactor,
  layingFactor,
  targetsAt,
} from '../../server/simulator/flock';

const at = (iso: string) => Date.parse(iso);

describe('outdoor climate', () => {
  it('is coldest at 5 am and warmest at 3 pm, local solar time by longitude', () => {
    expect(dailyShape(5)).toBeCloseTo(-1);
    expect(dailyShape(15)).toBeCloseTo(1);
    for (let h = 0; h < 24; h += 0.5) {
      expect(dailyShape(h)).toBeGreaterThanOrEqual(-1);
      expect(dailyShape(h)).toBeLessThanOrEqual(1);
    }
    // 120° E is 8 hours ahead of UTC by the sun.
    expect(solarHour(at('2026-11-21T00:00:00Z'), 120)).toBeCloseTo(8);
    expect(solarHour(at('2026-11-21T20:00:00Z'), 120)).toBeCloseTo(4);
  });

  it('follows latitude and month: cold northern winters, hot southern summers', () => {
    const tieling = 42.29;
    const qingyuan = 23.68;
    expect(seasonalMean(tieling, at('2026-01-16T00:00:00Z'))).toBeLessThan(-8);
    expect(seasonalMean(tieling, at('2026-07-17T00:00:00Z'))).toBeGreaterThan(22);
    expect(seasonalMean(qingyuan, at('2026-01-16T00:00:00Z'))).toBeGreaterThan(10);
    expect(seasonalMean(qingyuan, at('2026-07-17T00:00:00Z'))).toBeGreaterThan(27);
    // The southern hemisphere has its winter in July.
    expect(seasonalMean(-35, at('2026-07-17T00:00:00Z'))).toBeLessThan(
      seasonalMean(-35, at('2026-01-16T00:00:00Z')),
    );
  });

  it('gives every house of a farm the same weather, and a daily swing of a few degrees', () => {
    const a = outdoorWeather(1, 36.7, 119.2, at('2026-11-21T07:00:00Z'));
    expect(outdoorWeather(1, 36.7, 119.2, at('2026-11-21T07:00:00Z'))).toEqual(a);
    // 3 pm and 5 am solar time at 119° E (UTC+7.9).
    const afternoon = outdoorWeather(1, 36.7, 119.2, at('2026-11-21T07:05:00Z')).temperature;
    const dawn = outdoorWeather(1, 36.7, 119.2, at('2026-11-20T21:05:00Z')).temperature;
    expect(afternoon - dawn).toBeGreaterThan(5);
    expect(afternoon - dawn).toBeLessThan(16);
  });

  it('computes the wet-bulb temperature a cooling pad works towards', () => {
    expect(wetBulb(20, 50)).toBeCloseTo(13.7, 0);
    expect(wetBulb(35, 40)).toBeCloseTo(24.4, 0);
  });
});

describe('breed targets', () => {
  it('interpolates the standard rows linearly by age and holds the ends', () => {
    expect(targetsAt(BROILER, 3.5).temperature).toBeCloseTo(31);
    expect(targetsAt(BROILER, -1).temperature).toBe(33);
    expect(targetsAt(BROILER, 100).temperature).toBe(18);
    expect(targetsAt(LAYER, 119).layingRate).toBeCloseTo(5);
    expect(targetsAt(LAYER, 100).layingRate).toBe(0);
  });

  it('spreads a day of intake and laying over the light hours', () => {
    for (const lightHours of [10, 16, 18, 23]) {
      let intake = 0;
      let laying = 0;
      for (let h = 0; h < 24; h += 0.01) {
        intake += intakeFactor(h, lightHours) * 0.01;
        laying += layingFactor(h) * 0.01;
      }
      expect(intake / 24).toBeCloseTo(1, 2);
      expect(laying / 24).toBeCloseTo(1, 2);
    }
  });

  it('loses birds at the pace of the survival curve', () => {
    // Broilers: 100 % → 99.2 % in the first week.
    expect(dailyMortality(BROILER, 3) * 7).toBeCloseTo(0.008, 3);
    expect(dailyMortality(LAYER, 600)).toBeGreaterThan(0);
  });
});
