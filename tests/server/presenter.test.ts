import { describe, expect, it } from 'vitest';
import { withNewerReading } from '../../server/live/presenter';
import type { HouseLive } from '../../src/contract/live';

const state = (lastTs: string, temperature: number, patch: Partial<HouseLive> = {}): HouseLive => ({
  houseId: 7,
  online: true,
  network: 'wired',
  gatewayVersion: null,
  onlineSince: '2026-11-21T08:00:00.000Z',
  lastSeenAt: lastTs,
  lastTs,
  mode: 1,
  metrics: { temperature },
  faults: {},
  devices: {},
  alarm: { count: 0, top: null },
  ...patch,
});

describe('a house state that arrives after a newer one (two processes, Redis)', () => {
  it('keeps the newer reading, and takes the rest as it comes', () => {
    const newer = state('2026-11-21T09:00:40.000Z', 24);
    const older = state('2026-11-21T09:00:39.000Z', 23.9, {
      alarm: { count: 1, top: null },
      online: false,
    });
    const merged = withNewerReading(older, newer);
    expect(merged.metrics).toEqual({ temperature: 24 });
    expect(merged.lastTs).toBe(newer.lastTs);
    expect(merged.lastSeenAt).toBe(newer.lastSeenAt);
    expect(merged.alarm.count).toBe(1);
    expect(merged.online).toBe(false);
  });

  it('takes a newer or equally new state, or the first one, whole', () => {
    const first = state('2026-11-21T09:00:39.000Z', 23.9);
    const next = state('2026-11-21T09:00:40.000Z', 24);
    expect(withNewerReading(next, first)).toBe(next);
    expect(withNewerReading(first, undefined)).toBe(first);
    const offline = { ...first, online: false };
    expect(withNewerReading(offline, first)).toBe(offline);
  });
});
