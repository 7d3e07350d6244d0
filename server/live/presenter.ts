import {
  sameJson,
  type HouseDelta,
  type HouseLive,
  type HouseReading,
} from '../../src/contract/live';
import type { Reading } from '../ingest/types';
import type { HouseLiveState } from '../houses/state';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The one wire shape of a house's live state (REST and socket alike). */
export function presentLive(state: HouseLiveState): HouseLive {
  return {
    houseId: state.houseId,
    online: state.online,
    network: state.network === 'wired' || state.network === 'wireless' ? state.network : null,
    gatewayVersion: state.gatewayVersion,
    onlineSince: iso(state.onlineSince),
    lastSeenAt: iso(state.lastSeenAt),
    lastTs: iso(state.lastTs),
    mode: state.mode,
    metrics: state.metrics,
    faults: state.faults,
    devices: state.devices,
    alarm: { count: state.alarmCount, top: state.alarmTop },
  };
}

export function presentReading(reading: Reading): HouseReading {
  return {
    houseId: reading.houseId,
    ts: reading.ts.getTime(),
    mode: reading.mode,
    metrics: reading.metrics,
    faults: reading.faults,
    devices: reading.devices,
  };
}

const FIELDS = [
  'online',
  'network',
  'gatewayVersion',
  'onlineSince',
  'lastSeenAt',
  'lastTs',
  'mode',
  'metrics',
  'faults',
  'devices',
  'alarm',
] as const;

/** The fields of `next` that differ from `previous`; the whole house when there is no previous. */
export function diffLive(previous: HouseLive | undefined, next: HouseLive): HouseDelta | null {
  if (!previous) return next;
  const delta: Record<string, unknown> = { houseId: next.houseId };
  let changed = false;
  for (const field of FIELDS) {
    const a = previous[field];
    const b = next[field];
    if (!sameJson(a, b)) {
      delta[field] = b;
      changed = true;
    }
  }
  return changed ? (delta as HouseDelta) : null;
}

/**
 * Two processes store one house's readings side by side and each hears the other's states
 * through Redis, so a state can arrive after a newer one (seen: the last reading of a burst
 * never reached a browser on the other process). Its reading then gives way to the newer one's;
 * the rest (online, alarms) is taken as it comes.
 */
export function withNewerReading(incoming: HouseLive, known: HouseLive | undefined): HouseLive {
  if (!known?.lastTs || !incoming.lastTs || incoming.lastTs >= known.lastTs) return incoming;
  return {
    ...incoming,
    lastTs: known.lastTs,
    lastSeenAt:
      known.lastSeenAt && (!incoming.lastSeenAt || known.lastSeenAt > incoming.lastSeenAt)
        ? known.lastSeenAt
        : incoming.lastSeenAt,
    mode: known.mode,
    metrics: known.metrics,
    faults: known.faults,
    devices: known.devices,
  };
}
