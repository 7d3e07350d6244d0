import { scaleLinear } from '@visx/scale';
import { describe, expect, it } from 'vitest';
import { valueTicks } from '../../src/console/houses/axisTicks';

const labels = (min: number, max: number) => {
  const scale = scaleLinear({ domain: [min, max], range: [200, 0], nice: true });
  const ticks = valueTicks(scale.ticks(5));
  return ticks.values.map(ticks.format);
};

describe('value axis labels', () => {
  it('never repeat a label, however narrow the range', () => {
    for (const [min, max] of [
      [25.32, 25.48],
      [25.3, 25.42],
      [0.001, 0.004],
      [18, 32],
      [-1.2, 1.3],
      [1200, 1650],
    ] as const) {
      const shown = labels(min, max);
      expect(new Set(shown).size, `${min}…${max}: ${shown.join(', ')}`).toBe(shown.length);
    }
  });

  it('show no more decimals than the step needs', () => {
    expect(labels(18, 32)).toEqual(['18', '20', '22', '24', '26', '28', '30', '32']);
    expect(labels(25.32, 25.48)).toEqual(['25.35', '25.40', '25.45']);
    expect(labels(-1.2, 1.3)).toContain('0.0');
  });
});
