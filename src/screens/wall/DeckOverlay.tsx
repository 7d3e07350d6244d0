import { MapLibreOverlay, type MapLibreOverlayProps } from '@deck.gl/maplibre';
import { useEffect, type MutableRefObject } from 'react';
import { useControl } from 'react-map-gl/maplibre';

export interface DeckOverlayProps extends MapLibreOverlayProps {
  /** The overlay itself, for updates that do not go through React (live layer attributes). */
  overlayRef?: MutableRefObject<MapLibreOverlay | null>;
}

/** The parts of deck.gl's internals `dropWidgetRoot` reaches (no public API removes them). */
interface DeckWidgetInternals {
  widgetManager?: {
    finalize(): void;
    containers: Record<string, HTMLElement>;
  } | null;
}

/**
 * Removes deck.gl's default tooltip widget and its container. After every draw deck.gl sizes
 * that container from its parent's clientWidth, which forces a style and layout pass inside
 * our script whenever the page changed since the last frame (the ticker, the counters): ~8 ms
 * a second at 10,000 farms. The wall shows no deck.gl tooltip, so nothing is lost.
 */
export function dropWidgetRoot(overlay: MapLibreOverlay): boolean {
  const deck = (overlay as unknown as { _deck?: DeckWidgetInternals })._deck;
  const widgets = deck?.widgetManager;
  if (!widgets) return false;
  widgets.finalize();
  widgets.containers = {};
  return true;
}

/**
 * deck.gl over MapLibre with `@deck.gl/maplibre`, not `@deck.gl/mapbox`, whose overlay crashes
 * every frame on maplibre 6. Overlaid, not interleaved: interleaving can corrupt MapLibre's
 * symbol layers.
 */
export function DeckOverlay({ overlayRef, ...props }: DeckOverlayProps) {
  const overlay = useControl<MapLibreOverlay>(() => {
    const created = new MapLibreOverlay({
      ...props,
      interleaved: false,
      // deck.gl has made its widget manager by the time it calls onLoad.
      onLoad: () => {
        dropWidgetRoot(created);
        props.onLoad?.();
      },
    });
    return created;
  });
  overlay.setProps(props);
  useEffect(() => {
    if (overlayRef) overlayRef.current = overlay;
  }, [overlayRef, overlay]);
  return null;
}
