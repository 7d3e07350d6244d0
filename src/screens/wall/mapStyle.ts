import {
  type DataDrivenPropertyValueSpecification,
  type FilterSpecification,
  type Map as MapLibreMap,
  type StyleSpecification,
} from 'maplibre-gl';
import { type WallState } from '../../contract/wall';
import { STATE_RGB } from './constants';
import { type Regions } from './wallRegions';

/** Fill alpha of a region by state: alarms must read from across the room, normal stays quiet. */
const REGION_ALPHA: Record<WallState, number> = { alarm: 150, offline: 70, normal: 40 };

/** The MapLibre source of the regions and its layers that WallMap paints and picks. */
export const REGIONS_SOURCE = 'regions';
export const LAND_LAYER = 'land';
const SELECTED_LAYER = 'region-selected';

const rgba = (state: WallState) =>
  `rgba(${STATE_RGB[state].join(', ')}, ${(REGION_ALPHA[state] / 255).toFixed(3)})`;

/** A region's fill by the state WallMap set on it (`feature-state`), clear without one. */
const STATE_FILL: DataDrivenPropertyValueSpecification<string> = [
  'match',
  ['coalesce', ['feature-state', 'state'], ''],
  'alarm',
  rgba('alarm'),
  'offline',
  rgba('offline'),
  'normal',
  rgba('normal'),
  'rgba(0, 0, 0, 0)',
];

/** The property naming a region: a province's adcode in China, a country's ISO id on the World. */
export const regionKeyProperty = (regions: Regions): 'adcode' | 'id' =>
  regions.features[0] && 'adcode' in regions.features[0].properties ? 'adcode' : 'id';

const selectedFilter = (key: 'adcode' | 'id', region: string | null): FilterSpecification => [
  '==',
  ['get', key],
  region ?? '',
];

/**
 * The base map and the regions' shading: a dark background, the regions' land, their state as a
 * translucent fill and their borders, from the GeoJSON already fetched (no tiles, no glyphs, no
 * network). deck.gl draws only the farms over it.
 *
 * The shading is MapLibre's, not a deck.gl layer: deck.gl's canvas is drawn again at every live
 * update (the farms change each second), and with the regions on it each draw filled most of the
 * screen with translucent polygons. On SwiftShader that fill made the compositor wait seconds
 * for each frame (bench/wall.ts: frames p95 1.8 s with it, 16.8 ms without); on any GPU it
 * is work for nothing, since the regions change state a few times an hour. MapLibre's canvas is
 * drawn again only when a region's state or the camera changes.
 */
export function wallMapStyle(regions: Regions): StyleSpecification {
  const key = regionKeyProperty(regions);
  return {
    version: 8,
    sources: { [REGIONS_SOURCE]: { type: 'geojson', data: regions, promoteId: key } },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#06111d' } },
      { id: LAND_LAYER, type: 'fill', source: REGIONS_SOURCE, paint: { 'fill-color': '#0f2a44' } },
      {
        id: 'region-state',
        type: 'fill',
        source: REGIONS_SOURCE,
        paint: { 'fill-color': STATE_FILL },
      },
      {
        id: 'region-border',
        type: 'line',
        source: REGIONS_SOURCE,
        paint: { 'line-color': 'rgb(60, 110, 160)', 'line-width': 1 },
      },
      // The selected region's outline drawn again on top, so no neighbour's border covers it.
      {
        id: SELECTED_LAYER,
        type: 'line',
        source: REGIONS_SOURCE,
        filter: selectedFilter(key, null),
        paint: { 'line-color': 'rgb(120, 200, 255)', 'line-width': 3 },
      },
    ],
  };
}

/**
 * Paints each region's state; the map draws again only when one changed. A region no longer
 * listed loses its state.
 */
export function paintRegions(
  map: MapLibreMap,
  regions: Regions,
  states: ReadonlyMap<string, WallState>,
): void {
  if (!map.getSource(REGIONS_SOURCE)) return;
  for (const { properties } of regions.features) {
    const id = 'adcode' in properties ? properties.adcode : properties.id;
    const state = states.get(id) ?? null;
    const now = (map.getFeatureState({ source: REGIONS_SOURCE, id }).state as string) ?? null;
    if (now !== state) map.setFeatureState({ source: REGIONS_SOURCE, id }, { state });
  }
}

/** Outlines the selected region (none: no outline). */
export function outlineRegion(map: MapLibreMap, regions: Regions, selected: string | null): void {
  if (map.getLayer(SELECTED_LAYER))
    map.setFilter(SELECTED_LAYER, selectedFilter(regionKeyProperty(regions), selected));
}
