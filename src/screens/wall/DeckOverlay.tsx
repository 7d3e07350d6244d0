import { MapLibreOverlay, type MapLibreOverlayProps } from '@deck.gl/maplibre';
import { useControl } from 'react-map-gl/maplibre';

/**
 * deck.gl over MapLibre with `@deck.gl/maplibre`, not `@deck.gl/mapbox`, whose overlay crashes
 * every frame on maplibre 6. Overlaid, not interleaved: interleaving can corrupt MapLibre's
 * symbol layers.
 */
export function DeckOverlay(props: MapLibreOverlayProps) {
  const overlay = useControl<MapLibreOverlay>(
    () => new MapLibreOverlay({ ...props, interleaved: false }),
  );
  overlay.setProps(props);
  return null;
}
