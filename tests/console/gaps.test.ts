import { describe, expect, it } from 'vitest';
import { breakAtGaps, gapStep } from '../../src/console/houses/gaps';

describe('curves break where readings are missing', () => {
  it('puts a gap between readings further apart than three intervals, never a line', () => {
    const minute = 60_000;
    const xs = [0, 1, 2, 3, 124, 125].map((m) => m * minute);
    const points = breakAtGaps(
      xs.map((x) => ({ x, y: 20 })),
      gapStep(minute, 60),
    );
    expect(points.map((p) => p.y)).toEqual([20, 20, 20, 20, null, 20, 20]);
    expect(points[4]!.x).toBeGreaterThan(3 * minute);
    expect(points[4]!.x).toBeLessThan(124 * minute);
  });

  it('a gateway reading every 5 minutes is one line at minute buckets', () => {
    const xs = [0, 5, 10, 15].map((m) => m * 60_000);
    const points = breakAtGaps(
      xs.map((x) => ({ x, y: 1 })),
      gapStep(60_000, 300),
    );
    expect(points.every((p) => p.y !== null)).toBe(true);
  });
});
