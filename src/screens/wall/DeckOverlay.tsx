import { MapLibreOverlay, type MapLibreOverlayProps } from '@deck.gl/maplibre';
import { useEffect, type MutableRefObject } from 'react';
import { useControl } from 'react-map-gl/maplibre';
import { dropDeckWidgets, setDeckFrames, type FrameProvider } from './adapters/deck';

export interface DeckOverlayProps extends MapLibreOverlayProps {
  /** The overlay itself, for updates that do not go through React (live layer attributes). */
  overlayRef?: MutableRefObject<MapLibreOverlay | null>;
  /** deck.gl's loop, to wake after such an update and to quicken while a pointer hovers. */
  loopRef?: MutableRefObject<DeckLoop | null>;
}

/**
 * How often deck.gl's own loop runs while a pointer is over the map. It only picks what the
 * pointer hovers and draws layer changes; camera moves are drawn by MapLibre's render event
 * (MapLibreOverlay redraws deck.gl then). At 60 frames a second its idle work alone cost ~3 ms
 * of script a second; a hover answered within 100 ms is quick enough on a wall.
 */
export const DECK_LOOP_MS = 100;

/**
 * How often it runs with no pointer over the map, a wall's usual state: there is nothing to
 * pick, and a layer change wakes it at once (DeckLoop.wake). Even at 10 a second its ticks
 * cost ~3 ms of script a second with nothing changing, half the idle page's script
 * (bench/wall.ts, 10,000 farms with their updates dropped: 5.8 → 2.6 ms a second).
 */
export const DECK_IDLE_LOOP_MS = 1_000;

/** deck.gl's loop as slowDeckLoop runs it. */
export interface DeckLoop {
  /** Runs the next tick now: layers changed and should be drawn without waiting for it. */
  wake(): void;
  /** A pointer is over the map (tick every DECK_LOOP_MS) or not (DECK_IDLE_LOOP_MS). */
  setHovered(hovered: boolean): void;
}

interface Tick {
  timer?: ReturnType<typeof setTimeout>;
  frame?: number;
  /** Asks the browser for the tick's frame (once). */
  run(): void;
}

/**
 * Runs deck.gl's loop every DECK_LOOP_MS while hovered, else every DECK_IDLE_LOOP_MS, instead of
 * every animation frame. `setFrames` hands the loop its frames (setDeckFrames, for a real
 * overlay) and says whether there was a loop to slow; null when there was not.
 */
export function slowDeckLoop(setFrames: (frames: FrameProvider) => boolean): DeckLoop | null {
  // One id for both steps: the loop cancels by the id it was handed.
  const timers = new Map<number, Tick>();
  let nextId = 1;
  let hovered = false;
  const slowed = setFrames({
    requestAnimationFrame: (callback) => {
      const id = nextId++;
      const entry: Tick = {
        run: () => {
          if (entry.frame !== undefined) return;
          clearTimeout(entry.timer);
          entry.frame = requestAnimationFrame((time) => {
            timers.delete(id);
            callback(time);
          });
        },
      };
      timers.set(id, entry);
      entry.timer = setTimeout(entry.run, hovered ? DECK_LOOP_MS : DECK_IDLE_LOOP_MS);
      return id;
    },
    cancelAnimationFrame: (id) => {
      const entry = timers.get(id);
      if (!entry) return;
      clearTimeout(entry.timer);
      if (entry.frame !== undefined) cancelAnimationFrame(entry.frame);
      timers.delete(id);
    },
  });
  if (!slowed) return null;
  const wake = () => {
    for (const entry of timers.values()) entry.run();
  };
  return {
    wake,
    setHovered: (now) => {
      hovered = now;
      // A pointer that arrives wants its hover picked within DECK_LOOP_MS, not a second.
      if (now) wake();
    },
  };
}

/**
 * deck.gl over MapLibre with `@deck.gl/maplibre`, not `@deck.gl/mapbox`, whose overlay crashes
 * every frame on maplibre 6. Overlaid, not interleaved: interleaving can corrupt MapLibre's
 * symbol layers.
 */
export function DeckOverlay({ overlayRef, loopRef, ...props }: DeckOverlayProps) {
  const overlay = useControl<MapLibreOverlay>(() => {
    const created = new MapLibreOverlay({
      ...props,
      interleaved: false,
      // deck.gl has made its widget manager by the time it calls onLoad.
      onLoad: () => {
        // deck.gl's default tooltip widget goes with its container: after every draw deck.gl
        // sizes that container from its parent's clientWidth, which forces a style and layout
        // pass inside our script whenever the page changed since the last frame (the ticker,
        // the counters): ~8 ms a second at 10,000 farms. The wall shows no deck.gl tooltip.
        dropDeckWidgets(created);
        const loop = slowDeckLoop((frames) => setDeckFrames(created, frames));
        if (loopRef) loopRef.current = loop;
        props.onLoad?.();
      },
    });
    return created;
  });
  overlay.setProps(props);
  // What React handed over (a selection, a new map) is drawn now, not at the idle loop's tick.
  useEffect(() => loopRef?.current?.wake());
  useEffect(() => {
    if (overlayRef) overlayRef.current = overlay;
  }, [overlayRef, overlay]);
  return null;
}
