import { MapLibreOverlay, type MapLibreOverlayProps } from '@deck.gl/maplibre';
import { useControl } from 'react-map-gl/maplibre';

/**
 * deck.gl over MapLibre (STACK.md trap 4: not @deck.gl/mapbox). Overlaid, not interleaved:
 * interleaving can corrupt MapLibre's symbol layers.
 */
export function DeckOverlay(props: MapLibreOverlayProps) {
  const overlay = useControl<MapLibreOverlay>(
    () => new MapLibreOverlay({ ...props, interleaved: false }),
  );
  overlay.setProps(props);
  return null;
}
