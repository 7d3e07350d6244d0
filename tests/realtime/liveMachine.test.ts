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
    const queue = new FrameQueue<number>((b) => batches.push(b), undefined, scheduler);
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
