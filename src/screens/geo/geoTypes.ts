// Types and URLs of the offline map data in public/geo, built by scripts/build-geo.ts.
// Types and constants only: the wall screen fetches these files itself, once.
import type { Feature, FeatureCollection, MultiPolygon, Polygon } from 'geojson';

/** A position as [longitude, latitude] in degrees, rounded to 4 decimals. */
export type LngLat = [number, number];

/** Every geometry in public/geo is a Polygon or a MultiPolygon (RFC 7946 winding). */
export type AreaGeometry = Polygon | MultiPolygon;

/** Properties shared by a province and by a city (or district) of China (DataV-derived). */
export interface ChinaAreaProperties {
  /** Administrative division code, six digits, e.g. "370000" (Shandong) or "370100" (Jinan). */
  adcode: string;
  /** Chinese name as DataV gives it, e.g. "山东省". */
  name: string;
  /** English name, e.g. "Shandong"; for cities and districts, the Chinese name (no table yet). */
  nameEn: string;
  /** Full Chinese name; DataV's `name` is already the full name, so the two are equal. */
  fullname: string;
  /** DataV's `center`: the seat of government (capital), not the geometric middle. */
  center: LngLat;
  /** DataV's `centroid` (geometric), or `center` where DataV has none. */
  centroid: LngLat;
  /** Number of sub-divisions, as DataV counts them (0 where DataV has none, e.g. Taiwan). */
  childrenNum: number;
}

/** A feature of /geo/china-provinces.json: 34 provinces, incl. Taiwan, Hong Kong and Macao. */
export interface ChinaProvinceProperties extends ChinaAreaProperties {
  level: 'province';
  /** File name of the drill-down file in /geo (e.g. "china-370000.json"), null if none (Taiwan). */
  filename: string | null;
}

/**
 * A feature of a drill-down file /geo/china-<adcode>.json. Municipalities (Beijing, Tianjin,
 * Shanghai, Chongqing) and the SARs (Hong Kong, Macao) list districts; the others list cities.
 */
export interface ChinaCityProperties extends ChinaAreaProperties {
  level: 'city' | 'district';
  /** No deeper drill-down file is shipped. */
  filename: null;
}

/** A feature of /geo/world-countries.json (Natural Earth 1:110m). */
export interface WorldCountryProperties {
  /**
   * ISO 3166-1 numeric code, three digits, e.g. "156" (China). Three areas without one in
   * Natural Earth use the user-assigned range: "901" N. Cyprus, "902" Somaliland, "903" Kosovo.
   */
  id: string;
  /** English name from Natural Earth, e.g. "China". */
  name: string;
  /** Chinese name, e.g. "中国"; the English name where no Chinese one is known. */
  nameZh: string;
  /** A point inside the country's largest polygon, for a label or a marker. */
  center: LngLat;
}

export type ChinaProvinceFeature = Feature<AreaGeometry, ChinaProvinceProperties>;
export type ChinaCityFeature = Feature<AreaGeometry, ChinaCityProperties>;
export type WorldCountryFeature = Feature<AreaGeometry, WorldCountryProperties>;

export type ChinaProvinceCollection = FeatureCollection<AreaGeometry, ChinaProvinceProperties>;
export type ChinaCityCollection = FeatureCollection<AreaGeometry, ChinaCityProperties>;
export type WorldCountryCollection = FeatureCollection<AreaGeometry, WorldCountryProperties>;

/** Public URLs of the map files (served from public/geo; no network beyond the app's origin). */
export const GEO_FILES = {
  chinaProvinces: '/geo/china-provinces.json',
  worldCountries: '/geo/world-countries.json',
  /** The drill-down file of one province; use only when its `filename` is not null. */
  chinaProvince: (adcode: string): string => `/geo/china-${adcode}.json`,
} as const;
