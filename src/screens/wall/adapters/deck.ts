import { Deck } from '@deck.gl/core';
import type { MapLibreOverlay } from '@deck.gl/maplibre';

/**
 * The one place the wall reaches into deck.gl's internals, for the two savings no public API
 * offers (DeckOverlay.tsx says what each is worth): the overlay keeps its Deck in a private
 * member, and the Deck its loop and widgets in protected ones. tests/wall/deckAdapter.test.ts
 * fails when the installed deck.gl moves them; the protected ones are read through a subclass,
 * so a rename or a change of their type also fails the type check.
 */

/** Reads Deck's protected members, which TypeScript lets a subclass do by name and type. */
abstract class DeckInternals extends Deck {
  static loopOf(deck: Deck) {
    return (deck as DeckInternals).animationLoop;
  }
  static widgetsOf(deck: Deck) {
    return (deck as DeckInternals).widgetManager;
  }
}

/** The Deck a MapLibreOverlay draws with: null until the overlay is added to a map. */
export function deckOf(overlay: MapLibreOverlay): Deck | null {
  const deck: unknown = (overlay as unknown as { _deck?: unknown })._deck;
  return deck instanceof Deck ? deck : null;
}

/** What deck.gl's loop (luma.gl's AnimationLoop, whose props are public) is asked here. */
export interface FrameProvider {
  requestAnimationFrame(callback: FrameRequestCallback): number;
  cancelAnimationFrame(id: number): void;
}

/**
 * Hands deck.gl's loop the frames it is to run on. False when the overlay has no Deck or the
 * Deck no loop (the caller then leaves deck.gl's own pace alone).
 */
export function setDeckFrames(overlay: MapLibreOverlay, frames: FrameProvider): boolean {
  const deck = deckOf(overlay);
  const loop = deck && DeckInternals.loopOf(deck);
  if (!loop) return false;
  loop.setProps({ animationFrameProvider: frames });
  return true;
}

/**
 * Removes deck.gl's widgets (its default tooltip) and their container, which deck.gl otherwise
 * sizes from its parent after every draw. False when there is nothing to remove yet.
 */
export function dropDeckWidgets(overlay: MapLibreOverlay): boolean {
  const deck = deckOf(overlay);
  const widgets = deck && DeckInternals.widgetsOf(deck);
  if (!widgets) return false;
  widgets.finalize();
  // finalize() removes the containers from the page but keeps them listed; the list is private.
  (widgets as unknown as { containers: Record<string, HTMLElement> }).containers = {};
  return true;
}
