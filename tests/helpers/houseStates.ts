import type { HouseLiveState } from '../../server/houses/state';

/**
 * A house's state as the event bus announces it after a batch (what the live hub takes in):
 * online, wired, run mode 1, read now, no alarms; `fields` sets the rest.
 */
export function houseLiveState(
  houseId: number,
  fields: Partial<HouseLiveState> = {},
): HouseLiveState {
  const now = new Date();
  return {
    houseId,
    farmId: 1,
    online: true,
    network: 'wired',
    gatewayVersion: null,
    onlineSince: null,
    lastSeenAt: now,
    lastTs: now,
    mode: 1,
    metrics: {},
    faults: {},
    devices: {},
    alarmCount: 0,
    alarmTop: null,
    ...fields,
  };
}
