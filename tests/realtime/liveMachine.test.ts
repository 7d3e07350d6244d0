import { describe, expect, it } from 'vitest';
import { FrameQueue, type FrameScheduler } from '../../src/realtime/frameQueue';
import { nextLiveState } from '../../src/realtime/liveMachine';

describe('live state machine', () => {
  it('connecting → live → polling → live, and offline', () => {
    let s = nextLiveState('idle', 'start');
    expect(s).toBe('connecting');
    expect(nextLiveState(s, 'connected')).toBe('connecting');
    s = nextLiveState(s, 'snapshotLoaded');
    expect(s).toBe('live');
    s = nextLiveState(s, 'disconnected');
    expect(s).toBe('polling');
    expect(nextLiveState(s, 'connectError')).toBe('polling');
    s = nextLiveState(s, 'snapshotLoaded');
    expect(s).toBe('live');
    expect(nextLiveState('connecting', 'snapshotTimeout')).toBe('polling');
    expect(nextLiveState('live', 'browserOffline')).toBe('offline');
    expect(nextLiveState('offline', 'browserOnline')).toBe('connecting');
    expect(nextLiveState('live', 'stop')).toBe('idle');
  });
});

describe('FrameQueue', () => {
  function frames() {
    const callbacks: Array<() => void> = [];
    const scheduler: FrameScheduler = {
      request: (cb) => callbacks.push(cb),
      cancel: () => undefined,
    };
    return { scheduler, step: () => callbacks.splice(0).forEach((cb) => cb()) };
  }

  it('flushes everything pushed before a frame in one call', () => {
    const { scheduler, step } = frames();
    const batches: number[][] = [];
    const queue = new FrameQueue<number>((b) => batches.push(b), { frames: scheduler });
    queue.push(1, 2);
    queue.push(3);
    expect(batches).toEqual([]);
    step();
    expect(batches).toEqual([[1, 2, 3]]);
    step();
    expect(batches).toHaveLength(1);
  });

  /** A queue capped at 10, with what it flushed and how often it overflowed. */
  function capped(weigh?: (n: number) => number) {
    const { scheduler, step } = frames();
    const batches: number[][] = [];
    const seen = { overflows: 0 };
    const queue = new FrameQueue<number>((b) => batches.push(b), {
      onOverflow: () => (seen.overflows += 1),
      frames: scheduler,
      maxItems: 10,
      weigh,
    });
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

  it('takes a backlog in several tasks, in order, each at most its budget, without waiting for frames', () => {
    const frame = frames();
    const task = frames();
    const batches: number[][] = [];
    // Each item weighs its value; a flush takes at most 10, and always one item.
    const queue = new FrameQueue<number>((b) => batches.push(b), {
      frames: frame.scheduler,
      tasks: task.scheduler,
      weigh: (n) => n,
      perTask: 10,
    });
    queue.push(4, 5, 3, 12, 2);
    task.step();
    expect(batches).toEqual([]);
    frame.step();
    expect(batches).toEqual([[4, 5]]);
    expect(queue.size).toBe(17);
    queue.push(1);
    // The rest goes on in the next tasks, before any other frame.
    task.step();
    expect(batches.at(-1)).toEqual([3]);
    task.step();
    expect(batches.at(-1)).toEqual([12]);
    task.step();
    expect(batches.at(-1)).toEqual([2, 1]);
    expect(queue.size).toBe(0);
    frame.step();
    task.step();
    expect(batches).toHaveLength(4);
    // A new push after the backlog waits for a frame again.
    queue.push(7);
    task.step();
    expect(batches).toHaveLength(4);
    frame.step();
    expect(batches.at(-1)).toEqual([7]);
  });
});
