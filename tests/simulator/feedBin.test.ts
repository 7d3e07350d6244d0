import { describe, expect, it } from 'vitest';
import { estimateBinHours } from '../../server/production/feedBin';
import { BIN_CAPACITY_KG } from '../../server/simulator/feedBin';
import { createFleet } from '../../server/simulator/houseModel';
import { demoFleet } from './demoFleet';

const START = Date.parse('2026-03-10T00:00:00Z');
const STEP_MS = 10 * 60_000;

describe('the simulated feed bin', () => {
  it("falls as the flock eats and is refilled before it runs dry, passing under a day's feed", () => {
    // The oldest broiler flock of the demo eats the most: its bin cycles within days.
    const house = demoFleet(START)
      .filter((h) => h.breed === 'broiler')
      .sort((a, b) => a.placedOn.localeCompare(b.placedOn))[0]!;
    const [model] = createFleet([{ ...house, feedBin: true }], 1, START, STEP_MS);
    const levels: number[] = [];
    const feeds: number[] = [];
    for (let t = START; t < START + 6 * 86_400_000; t += STEP_MS) {
      const { metrics } = model!.next(t).message;
      levels.push(metrics.feed_bin!);
      feeds.push(metrics.feed ?? 0);
    }
    const refills = levels.filter((v, i) => i > 0 && v > levels[i - 1]!).length;
    expect(refills).toBeGreaterThanOrEqual(1);
    expect(Math.min(...levels)).toBeGreaterThan(0);
    expect(Math.max(...levels)).toBeLessThanOrEqual(BIN_CAPACITY_KG);
    // Before a refill less than a day's feed is left: the warning has something to raise on.
    const dailyKg = (feeds.reduce((a, b) => a + b, 0) / feeds.length) * (86_400_000 / STEP_MS);
    const lowest = Math.min(...levels.filter((v, i) => levels[i + 1]! > v));
    expect(lowest).toBeLessThan(dailyKg);
  });

  it('a house without a bin sensor reports no level', () => {
    const [model] = createFleet(demoFleet(START).slice(0, 1), 1, START, STEP_MS);
    expect(model!.next(START + STEP_MS).message.metrics.feed_bin).toBeUndefined();
  });

  it("the demo's late delivery: under a day of feed at the start, as the server judges it, then a refill", () => {
    const house = demoFleet(START)
      .filter((h) => h.breed === 'broiler')
      .sort((a, b) => a.placedOn.localeCompare(b.placedOn))[0]!;
    const step = 30_000;
    const [model] = createFleet([{ ...house, feedBin: true, story: 'feedBinLow' }], 1, START, step);
    const readings: { ts: number; kg: number }[] = [];
    let eaten = 0;
    for (let t = START + step; t <= START + 2 * 3_600_000; t += step) {
      const { metrics } = model!.next(t).message;
      readings.push({ ts: t, kg: metrics.feed_bin! });
      eaten += metrics.feed ?? 0;
    }
    // No delivery in the first two hours: the level only falls.
    expect(readings.every((r, i) => i === 0 || r.kg <= readings[i - 1]!.kg)).toBe(true);
    const now = readings.at(-1)!.ts;
    const judged = estimateBinHours(readings, now, eaten * 12);
    expect(judged!.hoursLeft).toBeLessThan(24);
    expect(judged!.hoursLeft).toBeGreaterThan(4);
    // The delivery comes before the bin runs dry.
    let refilled = false;
    for (let t = now + step; t <= now + 30 * 3_600_000 && !refilled; t += 10 * step) {
      const level = model!.next(t).message.metrics.feed_bin!;
      expect(level).toBeGreaterThan(0);
      refilled = level > readings.at(-1)!.kg;
    }
    expect(refilled).toBe(true);
  });
});
