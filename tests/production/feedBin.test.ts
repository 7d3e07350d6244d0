import { describe, expect, it } from 'vitest';
import { estimateBinHours } from '../../server/production/feedBin';
import { earlyWarningConditions } from '../../server/production/warningRules';

const H = 3_600_000;
const NOW = Date.parse('2026-03-10T12:00:00Z');
/** Hourly levels ending now, oldest first. */
const levels = (kg: number[]) => kg.map((v, i) => ({ ts: NOW - (kg.length - 1 - i) * H, kg: v }));

describe('the feed bin estimate', () => {
  it('the fall over the recent hours gives the rate and the hours left', () => {
    // 2000 → 1600 kg over 4 hours: 100 kg an hour, 16 hours left.
    expect(estimateBinHours(levels([2000, 1900, 1800, 1700, 1600]), NOW, null)).toEqual({
      levelKg: 1600,
      kgPerHour: 100,
      hoursLeft: 16,
    });
  });

  it('only the fall since the last refill counts', () => {
    // Refilled from 300 to 5000 kg, then 5000 → 4700 over 3 hours: 100 kg/h, 47 hours.
    const est = estimateBinHours(levels([500, 400, 300, 5000, 4900, 4800, 4700]), NOW, null);
    expect(est?.kgPerHour).toBe(100);
    expect(est?.hoursLeft).toBe(47);
  });

  it("just refilled, the flock's daily feed gives the rate; without it nothing is judged", () => {
    const refilled = levels([400, 300, 4800]);
    expect(estimateBinHours(refilled, NOW, 2400)?.hoursLeft).toBe(48);
    expect(estimateBinHours(refilled, NOW, null)).toBeNull();
  });

  it("a night's slow fall does not stretch the bin: the flock's daily feed judges when faster", () => {
    // 1600 → 1580 kg over 4 dark hours (5 kg/h), but the flock eats 2400 kg a day (100 kg/h).
    const night = levels([1600, 1595, 1590, 1585, 1580]);
    expect(estimateBinHours(night, NOW, null)?.hoursLeft).toBe(316);
    expect(estimateBinHours(night, NOW, 2400)).toEqual({
      levelKg: 1580,
      kgPerHour: 100,
      hoursLeft: 15.8,
    });
    // A fall faster than the daily feed is the one to go by.
    expect(estimateBinHours(levels([2000, 1900, 1800, 1700, 1600]), NOW, 1200)?.hoursLeft).toBe(16);
  });

  it('a level older than three hours says nothing', () => {
    const old = [
      { ts: NOW - 8 * H, kg: 900 },
      { ts: NOW - 4 * H, kg: 500 },
    ];
    expect(estimateBinHours(old, NOW, 2400)).toBeNull();
  });

  it('under 24 h raises with the level and the hours in its text; refilled, it clears', () => {
    const low = estimateBinHours(levels([2000, 1900, 1800, 1700, 1600]), NOW, null);
    const [raised] = earlyWarningConditions([], new Set(), undefined, low);
    expect(raised).toMatchObject({
      cause: 'feedBinLow',
      active: true,
      value: 16,
      limit: 24,
      text: '1600 kg, ≈ 16 h (< 24 h)',
    });
    // 30 hours left is over the limit but under the clear limit (36 h): still open.
    const slower = estimateBinHours(levels([3300, 3200, 3100, 3000]), NOW, null);
    expect(earlyWarningConditions([], new Set(['feedBinLow']), undefined, slower)[0]?.active).toBe(
      true,
    );
    const full = estimateBinHours(levels([1700, 1600, 9000, 8900, 8800]), NOW, null);
    expect(earlyWarningConditions([], new Set(['feedBinLow']), undefined, full)[0]?.active).toBe(
      false,
    );
  });
});
