import { MapLibreOverlay, type MapLibreOverlayProps } from '@deck.gl/maplibre';
import { useEffect, type MutableRefObject } from 'react';
import { useControl } from 'react-map-gl/maplibre';

export interface DeckOverlayProps extends MapLibreOverlayProps {
  /** The overlay itself, for updates that do not go through React (live layer attributes). */
  overlayRef?: MutableRefObject<MapLibreOverlay | null>;
}

/**
 * deck.gl over MapLibre with `@deck.gl/maplibre`, not `@deck.gl/mapbox`, whose overlay crashes
 * every frame on maplibre 6. Overlaid, not interleaved: interleaving can corrupt MapLibre's
 * symbol layers.
 */
export function DeckOverlay({ overlayRef, ...props }: DeckOverlayProps) {
  const overlay = useControl<MapLibreOverlay>(
    () => new MapLibreOverlay({ ...props, interleaved: false }),
  );
  overlay.setProps(props);
  useEffect(() => {
    if (overlayRef) overlayRef.current = overlay;
  }, [overlayRef, overlay]);
  return null;
}
