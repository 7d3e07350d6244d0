import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DECK_IDLE_LOOP_MS, DECK_LOOP_MS, slowDeckLoop } from '../../src/screens/wall/DeckOverlay';

type Provider = {
  requestAnimationFrame(callback: FrameRequestCallback): number;
  cancelAnimationFrame(id: number): void;
};

/**
 * deck.gl's loop on the wall: a tick a second while nobody points at the map, ten while someone
 * does, and at once when the farms change, so a change is drawn when it arrives.
 */
describe('the wall map’s deck.gl loop', () => {
  let provider: Provider;
  let ticks: number[];
  let loop: NonNullable<ReturnType<typeof slowDeckLoop>>;
  const start = Date.now();
  /** deck.gl asks for its next frame after each one, as luma.gl's AnimationLoop does. */
  const tick = () => {
    ticks.push(Date.now() - start);
    provider.requestAnimationFrame(tick);
  };

  beforeEach(() => {
    vi.useFakeTimers({ now: start });
    // The browser's frame: the next 16 ms.
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) =>
      setTimeout(() => callback(Date.now()), 16),
    );
    vi.stubGlobal('cancelAnimationFrame', (id: number) => clearTimeout(id));
    ticks = [];
    loop = slowDeckLoop((frames) => {
      provider = frames;
      return true;
    })!;
    provider.requestAnimationFrame(tick);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('ticks once a second while nobody points at the map', () => {
    vi.advanceTimersByTime(10_000);
    expect(ticks.length).toBeGreaterThanOrEqual(9);
    expect(ticks.length).toBeLessThanOrEqual(10);
    expect(ticks[0]).toBeGreaterThanOrEqual(DECK_IDLE_LOOP_MS);
  });

  it('draws a change of the farms at once, not at the next idle tick', () => {
    vi.advanceTimersByTime(300);
    expect(ticks).toEqual([]);
    loop.wake();
    vi.advanceTimersByTime(20);
    expect(ticks).toEqual([316]);
    // Then back to its idle pace.
    vi.advanceTimersByTime(DECK_IDLE_LOOP_MS - 100);
    expect(ticks).toHaveLength(1);
  });

  it('ticks every DECK_LOOP_MS while a pointer hovers, for its picking, and slows when it leaves', () => {
    loop.setHovered(true);
    vi.advanceTimersByTime(1_000);
    expect(ticks.length).toBeGreaterThanOrEqual(1_000 / (DECK_LOOP_MS + 16) - 1);
    loop.setHovered(false);
    const before = ticks.length;
    vi.advanceTimersByTime(3_000);
    expect(ticks.length - before).toBeLessThanOrEqual(4);
  });

  it('leaves deck.gl alone when it has no loop to slow', () => {
    expect(slowDeckLoop(() => false)).toBeNull();
  });
});
