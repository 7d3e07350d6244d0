import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROVINCES } from '../../src/contract/provinces';
import type { ChinaProvinceCollection } from '../../src/screens/geo/geoTypes';

describe('the province list of the farm form', () => {
  it('is the map files’ provinces: same adcodes, names and capitals, in the same order', () => {
    const file = fileURLToPath(new URL('../../public/geo/china-provinces.json', import.meta.url));
    const map = JSON.parse(readFileSync(file, 'utf8')) as ChinaProvinceCollection;
    expect(PROVINCES).toEqual(
      map.features.map(({ properties: p }) => ({
        adcode: p.adcode,
        nameZh: p.name,
        nameEn: p.nameEn,
        center: p.center,
      })),
    );
  });
});
