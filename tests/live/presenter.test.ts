import { describe, expect, it } from 'vitest';
import { diffLive, withNewerReading } from '../../server/live/presenter';
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

describe('the fields of a house that changed since it was last sent', () => {
  const sent = state('2026-11-21T09:00:40.000Z', 24, {
    metrics: { temperature: 24, humidity: 61.5, co2: 1200 },
    devices: { fan1: { state: 1, opening: 40 }, heater: { state: 0 } },
    alarm: { count: 1, top: null },
  });

  it('sends nothing for the same state read again, whatever order its records came in', () => {
    const again = JSON.parse(JSON.stringify(sent)) as HouseLive;
    again.metrics = { co2: 1200, humidity: 61.5, temperature: 24 };
    again.devices = { heater: { state: 0 }, fan1: { opening: 40, state: 1 } };
    expect(diffLive(sent, again)).toBeNull();
  });

  it('sends the house id and each changed field whole, and nothing else', () => {
    const next: HouseLive = {
      ...sent,
      metrics: { ...sent.metrics, co2: 1250 },
      devices: { ...sent.devices, fan1: { state: 1, opening: 60 } },
    };
    expect(diffLive(sent, next)).toEqual({
      houseId: 7,
      metrics: next.metrics,
      devices: next.devices,
    });
    // A record that lost a key changed, as did one that gained one.
    const { co2: _co2, ...fewer } = sent.metrics;
    expect(diffLive(sent, { ...sent, metrics: fewer })).toEqual({ houseId: 7, metrics: fewer });
    expect(diffLive(sent, { ...sent, faults: { nh3: 'notConnected' } })).toEqual({
      houseId: 7,
      faults: { nh3: 'notConnected' },
    });
    expect(diffLive(sent, { ...sent, online: false, alarm: { count: 0, top: null } })).toEqual({
      houseId: 7,
      online: false,
      alarm: { count: 0, top: null },
    });
  });

  it('sends the whole house the first time', () => {
    expect(diffLive(undefined, sent)).toBe(sent);
  });
});
