import { describe, expect, it } from 'vitest';
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
