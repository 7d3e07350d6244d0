import { Deck } from '@deck.gl/core';
import { MapLibreOverlay } from '@deck.gl/maplibre';
import { describe, expect, it } from 'vitest';
import { deckOf, dropDeckWidgets, setDeckFrames } from '../../../src/screens/wall/adapters/deck';

/**
 * The wall's reach into deck.gl's internals (src/screens/wall/adapters/deck.ts), held to the
 * installed deck.gl. A real Deck needs WebGL, which Node lacks: the overlay's private member is
 * shown by the overlay's own public methods using what sits there; Deck's protected members are
 * read through a subclass, so the type check fails if they are renamed or retyped, and the wall
 * end-to-end test runs all of it on a real map.
 */
describe('deck.gl internals, through the adapter', () => {
  /** An object that is a Deck to `instanceof`, with no WebGL behind it. */
  const standIn = () => Object.create(Deck.prototype) as Deck;

  it('finds no Deck on an overlay not yet added to a map, and then touches nothing', () => {
    const overlay = new MapLibreOverlay({});
    expect(deckOf(overlay)).toBeNull();
    expect(
      setDeckFrames(overlay, { requestAnimationFrame: () => 0, cancelAnimationFrame: () => {} }),
    ).toBe(false);
    expect(dropDeckWidgets(overlay)).toBe(false);
  });

  it('finds the Deck where the overlay keeps it: where its own pick methods look', () => {
    const overlay = new MapLibreOverlay({});
    const deck = standIn();
    const picked = { picked: true };
    const many = [picked];
    Object.assign(deck, { pickObject: () => picked, pickMultipleObjects: () => many });
    (overlay as unknown as { _deck: Deck })._deck = deck;
    // If deck.gl moved its Deck elsewhere, its own methods would not find ours.
    expect(overlay.pickObject({ x: 0, y: 0 })).toBe(picked);
    expect(overlay.pickMultipleObjects({ x: 0, y: 0 })).toBe(many);
    expect(deckOf(overlay)).toBe(deck);
  });

  it('hands the frames to the Deck’s loop and drops its widgets with their containers', () => {
    const overlay = new MapLibreOverlay({});
    const deck = standIn();
    const asked: unknown[] = [];
    const removed: string[] = [];
    const widgets = {
      finalize: () => {
        for (const id in widgets.containers) removed.push(id);
      },
      containers: { root: {} } as Record<string, unknown>,
    };
    Object.assign(deck, {
      animationLoop: { setProps: (props: unknown) => asked.push(props) },
      widgetManager: widgets,
    });
    (overlay as unknown as { _deck: Deck })._deck = deck;
    const frames = { requestAnimationFrame: () => 1, cancelAnimationFrame: () => {} };
    expect(setDeckFrames(overlay, frames)).toBe(true);
    expect(asked).toEqual([{ animationFrameProvider: frames }]);
    expect(dropDeckWidgets(overlay)).toBe(true);
    expect(removed).toEqual(['root']);
    expect(widgets.containers).toEqual({});
  });

  it('reads the members Deck’s own finalize() releases: its loop and its widgets', () => {
    const deck = standIn();
    const released: string[] = [];
    Object.assign(deck, {
      props: {},
      // What finalize() also walks through on the way; not read by the adapter.
      _canvasManager: { targets: {}, finalize: () => {} },
      animationLoop: {
        stop: () => released.push('loop stopped'),
        destroy: () => released.push('loop destroyed'),
      },
      widgetManager: { finalize: () => released.push('widgets') },
    });
    deck.finalize();
    expect(released).toEqual(['loop stopped', 'loop destroyed', 'widgets']);
  });
});
