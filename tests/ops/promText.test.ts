import { describe, expect, it } from 'vitest';
import { parseExposition, valueOf } from './promText';

/** The reader the metrics test trusts must refuse what Prometheus would refuse. */
describe('the Prometheus text reader', () => {
  const good =
    '# HELP a_total A count.\n# TYPE a_total counter\na_total{reason="x\\"y"} 3\n' +
    '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 0.5\nh_count 2\n';

  it('reads well-formed families, labels and values', () => {
    const m = parseExposition(good);
    expect(valueOf(m, 'a_total', { reason: 'x"y' })).toBe(3);
    expect(valueOf(m, 'h_bucket', { le: '+Inf' })).toBe(2);
    expect(valueOf(m, 'h_sum')).toBe(0.5);
  });

  it.each([
    ['a sample before its TYPE', 'b 1\n'],
    ['a bad metric name', '# TYPE 1a gauge\n1a 1\n'],
    ['an unquoted label value', '# TYPE g gauge\ng{a=b} 1\n'],
    ['a value that is not a number', '# TYPE g gauge\ng one\n'],
    ['a second TYPE', '# TYPE g gauge\n# TYPE g gauge\n'],
    ['no final line feed', '# TYPE g gauge\ng 1'],
    ['a TYPE of no known kind', '# TYPE g gaugey\n'],
  ])('refuses %s', (_, text) => {
    expect(() => parseExposition(text)).toThrow();
  });
});
