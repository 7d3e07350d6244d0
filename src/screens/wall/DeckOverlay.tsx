import { MapLibreOverlay, type MapLibreOverlayProps } from '@deck.gl/maplibre';
import { useEffect, type MutableRefObject } from 'react';
import { useControl } from 'react-map-gl/maplibre';

export interface DeckOverlayProps extends MapLibreOverlayProps {
  /** The overlay itself, for updates that do not go through React (live layer attributes). */
  overlayRef?: MutableRefObject<MapLibreOverlay | null>;
}

/** The parts of deck.gl's internals reached here (no public API offers these). */
interface DeckInternals {
  widgetManager?: {
    finalize(): void;
    containers: Record<string, HTMLElement>;
  } | null;
  animationLoop?: {
    setProps(props: {
      animationFrameProvider: {
        requestAnimationFrame(callback: FrameRequestCallback): number;
        cancelAnimationFrame(id: number): void;
      };
    }): void;
  } | null;
}

const deckOf = (overlay: MapLibreOverlay) =>
  (overlay as unknown as { _deck?: DeckInternals })._deck;

/**
 * How often deck.gl's own loop runs. It only picks what the pointer hovers and draws layer
 * changes (the farms once a second); camera moves are drawn by MapLibre's render event
 * (MapLibreOverlay redraws deck.gl then). At 60 frames a second its idle work alone cost ~3 ms
 * of script a second; a hover answered within 100 ms is quick enough on a wall.
 */
export const DECK_LOOP_MS = 100;

/**
 * Removes deck.gl's default tooltip widget and its container. After every draw deck.gl sizes
 * that container from its parent's clientWidth, which forces a style and layout pass inside
 * our script whenever the page changed since the last frame (the ticker, the counters): ~8 ms
 * a second at 10,000 farms. The wall shows no deck.gl tooltip, so nothing is lost.
 */
export function dropWidgetRoot(overlay: MapLibreOverlay): boolean {
  const widgets = deckOf(overlay)?.widgetManager;
  if (!widgets) return false;
  widgets.finalize();
  widgets.containers = {};
  return true;
}

/** Runs deck.gl's loop every DECK_LOOP_MS instead of every animation frame. */
export function slowDeckLoop(overlay: MapLibreOverlay): boolean {
  const loop = deckOf(overlay)?.animationLoop;
  if (!loop) return false;
  // One id for both steps: the loop cancels by the id it was handed.
  const timers = new Map<number, { timer?: ReturnType<typeof setTimeout>; frame?: number }>();
  let nextId = 1;
  loop.setProps({
    animationFrameProvider: {
      requestAnimationFrame: (callback) => {
        const id = nextId++;
        const entry: { timer?: ReturnType<typeof setTimeout>; frame?: number } = {};
        timers.set(id, entry);
        entry.timer = setTimeout(() => {
          entry.frame = requestAnimationFrame((time) => {
            timers.delete(id);
            callback(time);
          });
        }, DECK_LOOP_MS);
        return id;
      },
      cancelAnimationFrame: (id) => {
        const entry = timers.get(id);
        if (!entry) return;
        clearTimeout(entry.timer);
        if (entry.frame !== undefined) cancelAnimationFrame(entry.frame);
        timers.delete(id);
      },
    },
  });
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
        slowDeckLoop(created);
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
