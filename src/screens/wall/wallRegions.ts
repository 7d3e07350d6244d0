import { type WallFarm } from '../../contract/wall';
import {
  GEO_FILES,
  type ChinaCityCollection,
  type ChinaProvinceCollection,
  type WorldCountryCollection,
} from '../geo/geoTypes';
import { containsPoint } from './wallModel';

export type Regions = ChinaProvinceCollection | WorldCountryCollection;

/** China's ISO numeric code: a farm with a province adcode is in China on the World map. */
const CHINA_COUNTRY_ID = '156';
const ANTARCTICA_ID = '010';

/** The map file of a map type (deck.gl wants GeoJSON loaded once: the wall keeps it). */
export async function fetchRegions(mapType: '1' | '2'): Promise<Regions> {
  const url = mapType === '2' ? GEO_FILES.worldCountries : GEO_FILES.chinaProvinces;
  const response = await fetch(url);
  const regions = (await response.json()) as Regions;
  if (mapType !== '2') return regions;
  // No farm is in Antarctica, and on a wall taller than the world's bounds it would fill the
  // bottom third of the map (seen on the 1920×1080 screenshot).
  const world = regions as WorldCountryCollection;
  return { ...world, features: world.features.filter((f) => f.properties.id !== ANTARCTICA_ID) };
}

/** An area's name in the screen's language; its code when the map does not know it. */
export function regionNameOf(
  regions: Regions | null,
  region: string | null,
  language: 'en' | 'zh',
): string {
  const feature = regions?.features.find((f) =>
    'adcode' in f.properties ? f.properties.adcode === region : f.properties.id === region,
  );
  if (!feature) return region ?? '';
  const p = feature.properties;
  if ('adcode' in p) return language === 'zh' ? p.name : p.nameEn;
  return language === 'zh' ? p.nameZh : p.name;
}

/**
 * Where each farm is on the map, and each province's city file: both looked up once, as a
 * World map finds a farm's country by testing its point against every country's outline.
 */
export class RegionLookup {
  private readonly regionOfFarm = new Map<number, string | null>();
  /** Each province's city file, fetched once (34 at most). */
  private readonly cityFiles = new Map<string, Promise<ChinaCityCollection | null>>();

  /** A new map: the farms' countries are found again. */
  forgetFarms(): void {
    this.regionOfFarm.clear();
  }

  regionOf(farm: WallFarm, mapType: '1' | '2' | null, regions: Regions | null): string | null {
    if (mapType !== '2') return farm.provinceAdcode;
    if (farm.provinceAdcode) return CHINA_COUNTRY_ID;
    if (this.regionOfFarm.has(farm.farmId)) return this.regionOfFarm.get(farm.farmId) ?? null;
    let found: string | null = null;
    if (farm.longitude !== null && farm.latitude !== null && regions)
      for (const feature of (regions as WorldCountryCollection).features)
        if (containsPoint(feature.geometry, [farm.longitude, farm.latitude])) {
          found = feature.properties.id;
          break;
        }
    this.regionOfFarm.set(farm.farmId, found);
    return found;
  }

  /** The cities of a Chinese province, or null when none are shipped (Taiwan) or the fetch failed. */
  cities(adcode: string, regions: Regions | null): Promise<ChinaCityCollection | null> {
    let file = this.cityFiles.get(adcode);
    if (!file) {
      const province = (regions as ChinaProvinceCollection | null)?.features.find(
        (f) => f.properties.adcode === adcode,
      );
      file = province?.properties.filename
        ? fetch(GEO_FILES.chinaProvince(adcode))
            .then((r) => (r.ok ? (r.json() as Promise<ChinaCityCollection>) : null))
            .catch(() => null)
        : Promise.resolve(null);
      this.cityFiles.set(adcode, file);
    }
    return file;
  }
}
