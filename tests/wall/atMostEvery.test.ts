import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atMostEvery } from '../../src/screens/wall/atMostEvery';

/**
 * The screen reader's farm lines are written at most every few seconds in a storm: the first
 * change shows at once, a burst shows its last state when the spacing is up, never later.
 */
describe('a task spaced at most every N ms', () => {
  let runs: number[];
  let start: number;
  const task = () => atMostEvery(3_000, () => runs.push(Date.now() - start));

  beforeEach(() => {
    vi.useFakeTimers();
    start = Date.now();
    runs = [];
  });
  afterEach(() => vi.useRealTimers());

  it('runs the first request at once, and a burst after it once, when the spacing is up', () => {
    const spaced = task();
    spaced.request();
    expect(runs).toEqual([0]);
    for (let second = 1; second <= 5; second += 1) {
      vi.advanceTimersByTime(1_000);
      spaced.request();
    }
    // Requests at 1 to 5 s: one run at 3 s (for those at 1 and 2 s), one at 6 s (3 to 5 s).
    expect(runs).toEqual([0, 3_000]);
    vi.advanceTimersByTime(1_000);
    expect(runs).toEqual([0, 3_000, 6_000]);
    vi.advanceTimersByTime(10_000);
    expect(runs).toHaveLength(3);
  });

  it('runs at once after a quiet spell longer than the spacing', () => {
    const spaced = task();
    spaced.request();
    vi.advanceTimersByTime(4_000);
    spaced.request();
    expect(runs).toEqual([0, 4_000]);
  });

  it('runs now on demand, dropping the waiting run, and nothing after dispose', () => {
    const spaced = task();
    spaced.request();
    vi.advanceTimersByTime(1_000);
    spaced.request();
    spaced.now();
    expect(runs).toEqual([0, 1_000]);
    vi.advanceTimersByTime(5_000);
    expect(runs).toEqual([0, 1_000]);
    spaced.request();
    vi.advanceTimersByTime(500);
    spaced.request();
    spaced.dispose();
    vi.advanceTimersByTime(10_000);
    expect(runs).toEqual([0, 1_000, 6_000]);
  });
});
