import { describe, expect, it } from 'vitest';
import { FrameQueue, type FrameScheduler } from '../../src/realtime/frameQueue';

/*
 * The live overview's deltas are pushed by socket handlers and applied once per animation frame:
 * what a user notices is one repaint per frame however many deltas came, nothing stale after a
 * fresh snapshot, and a background tab that does not grow without end.
 */
describe('FrameQueue', () => {
  /** Frames stepped by hand: a browser's frames, without waiting for a screen refresh. */
  function frames() {
    const callbacks = new Map<number, () => void>();
    let next = 0;
    const scheduler: FrameScheduler = {
      request: (cb) => (callbacks.set(++next, cb), next),
      cancel: (handle) => void callbacks.delete(handle),
    };
    const step = () => {
      const due = [...callbacks.values()];
      callbacks.clear();
      due.forEach((cb) => cb());
    };
    return { scheduler, step, waiting: () => callbacks.size };
  }

  it('flushes everything pushed before a frame in one call', () => {
    const { scheduler, step } = frames();
    const batches: number[][] = [];
    const queue = new FrameQueue<number>((b) => batches.push(b), undefined, scheduler);
    queue.push(1, 2);
    queue.push(3);
    expect(batches).toEqual([]);
    step();
    expect(batches).toEqual([[1, 2, 3]]);
    step();
    expect(batches).toHaveLength(1);
  });

  it('asks for one frame however many pushes come before it, and a new one after it', () => {
    const { scheduler, step, waiting } = frames();
    const batches: number[][] = [];
    const queue = new FrameQueue<number>((b) => batches.push(b), undefined, scheduler);
    for (let i = 0; i < 100; i++) queue.push(i);
    expect(waiting()).toBe(1);
    step();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(100);
    queue.push(100);
    expect(waiting()).toBe(1);
    step();
    expect(batches).toEqual([expect.any(Array), [100]]);
  });

  it('clear drops what waits and its frame: a fresh snapshot is not overwritten by older deltas', () => {
    const { scheduler, step, waiting } = frames();
    const batches: number[][] = [];
    const queue = new FrameQueue<number>((b) => batches.push(b), undefined, scheduler);
    queue.push(1, 2);
    queue.clear();
    expect(queue.size).toBe(0);
    expect(waiting()).toBe(0);
    step();
    expect(batches).toEqual([]);
    queue.push(3);
    step();
    expect(batches).toEqual([[3]]);
  });

  /** A queue capped at 10, with what it flushed and how often it overflowed. */
  function capped(weigh?: (n: number) => number) {
    const { scheduler, step } = frames();
    const batches: number[][] = [];
    const seen = { overflows: 0 };
    const queue = new FrameQueue<number>(
      (b) => batches.push(b),
      () => (seen.overflows += 1),
      scheduler,
      10,
      weigh,
    );
    return { queue, step, batches, seen };
  }

  it('is bounded: past the cap it keeps the newest 80 % and says so', () => {
    const { queue, step, batches, seen } = capped();
    queue.push(...Array.from({ length: 11 }, (_, i) => i));
    expect(queue.size).toBe(8);
    expect(seen.overflows).toBe(1);
    step();
    expect(batches[0]![0]).toBe(3);
  });

  it('counts a weighty item as what it stands for: a batch of packed statuses as its houses', () => {
    // Each item weighs its own value (a batch of that many houses).
    const { queue, step, batches, seen } = capped((n) => n);
    queue.push(4, 4);
    expect(queue.size).toBe(8);
    expect(seen.overflows).toBe(0);
    // 13 > 10: the oldest go until at most 8 remain.
    queue.push(5);
    expect(seen.overflows).toBe(1);
    expect(queue.size).toBe(5);
    step();
    expect(batches).toEqual([[5]]);
    expect(queue.size).toBe(0);
  });
});
