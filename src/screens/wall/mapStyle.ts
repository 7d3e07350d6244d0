import { type StyleSpecification } from 'maplibre-gl';
import { type Regions } from './wallRegions';

/**
 * The base map: a dark background and the regions' land and borders, from the GeoJSON already
 * fetched (no tiles, no glyphs, no network). deck.gl shades and points over it.
 */
export function wallMapStyle(regions: Regions): StyleSpecification {
  return {
    version: 8,
    sources: { regions: { type: 'geojson', data: regions } },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#06111d' } },
      { id: 'land', type: 'fill', source: 'regions', paint: { 'fill-color': '#0f2a44' } },
    ],
  };
}
