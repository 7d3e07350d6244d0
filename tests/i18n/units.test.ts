import { describe, expect, it } from 'vitest';
import { PARAMS } from '../../src/contract/envcontrol';
import { METRICS } from '../../src/contract/metrics';
import { en } from '../../src/i18n/en';
import { zh } from '../../src/i18n/zh';

type Tree = { readonly [key: string]: string | Tree };

const texts = (tree: Tree, prefix = ''): Array<[string, string]> =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : texts(value, `${prefix}${key}.`),
  );

/**
 * One spelling of each unit in both languages, as the metric catalogue writes it: the monitor's
 * "0.0 kW·h" beside Daily Business's "kWh", or "°C" beside "℃", read as two different things.
 */
const OTHER_SPELLINGS = [/kW\s*[·•*.]\s*h/, /°\s?C/, /\bKWh\b/, /千瓦时/];

const offenders = (rows: Array<[string, string]>) =>
  rows.filter(([, text]) => OTHER_SPELLINGS.some((re) => re.test(text))).map(([key]) => key);

describe('unit spellings', () => {
  it('the catalogues write electricity as kWh and temperature as ℃', () => {
    const units: Array<[string, string]> = [
      ...METRICS.map((m) => [`metric ${m.key}`, m.unit ?? ''] as [string, string]),
      ...PARAMS.map((p) => [`param ${p.key}`, p.unit ?? ''] as [string, string]),
    ];
    expect(offenders(units)).toEqual([]);
    expect(METRICS.find((m) => m.key === 'power')?.unit).toBe('kWh');
    expect(METRICS.find((m) => m.key === 'temperature')?.unit).toBe('℃');
  });

  it('no console text spells them another way, in en or zh', () => {
    expect(offenders([...texts(en), ...texts(zh as Tree)])).toEqual([]);
  });

  it('a count in ten thousands says so in words ("Alive (10K)" had to be explained)', () => {
    const unexplained = texts(en).filter(([, text]) => /\b10K\b/i.test(text));
    expect(unexplained).toEqual([]);
    // English counts birds whole ("45,000"); Chinese reads them in 万只, and its heading says so.
    expect(en.production.kpi.alive).toBe('Alive (birds)');
    expect(zh.production.kpi.alive).toBe('存栏数（万只）');
  });

  it('would catch the spellings the console mixed', () => {
    expect(
      offenders([
        ['a', '0.0 kW • h'],
        ['b', 'kW·h'],
        ['c', '25 °C'],
        ['d', '25 ℃ · 3 kWh'],
      ]),
    ).toEqual(['a', 'b', 'c']);
  });
});
