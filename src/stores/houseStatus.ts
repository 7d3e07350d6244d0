import { type HouseLive } from '../contract/live';

/** Run mode 99 is the empty house (no flock). */
export const EMPTY_HOUSE_MODE = 99;

/**
 * A reading older than this is shown as stale: three demo intervals (30 s each), the same rule
 * the server uses to call a silent gateway offline.
 */
export const STALE_AFTER_MS = 90_000;

export type HouseStatus = 'offline' | 'alarm' | 'empty' | 'normal';
export const STATUS_FILTERS = ['all', 'offline', 'online', 'alarm', 'empty', 'normal'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export interface StatusInput {
  ageDays: number | null;
  live: Pick<HouseLive, 'online' | 'mode' | 'alarm'>;
}

/** Offline, then alarm, then normal; "empty" when the house holds no flock. */
export function statusOf(house: StatusInput): HouseStatus {
  if (!house.live.online) return 'offline';
  if (house.live.alarm.count > 0) return 'alarm';
  if (isEmptyHouse(house)) return 'empty';
  return 'normal';
}

export function isEmptyHouse(house: StatusInput): boolean {
  return house.live.mode === EMPTY_HOUSE_MODE || house.ageDays === null;
}

export function matchesFilter(house: StatusInput, filter: StatusFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'online':
      return house.live.online;
    case 'empty':
      return isEmptyHouse(house);
    default:
      return statusOf(house) === filter;
  }
}

/**
 * Every filter's count in one pass: each house's live state is read once, not once per filter
 * (5,000 houses are counted again on every live batch).
 */
export function countStatuses(houses: Iterable<StatusInput>): Record<StatusFilter, number> {
  const counts: Record<StatusFilter, number> = {
    all: 0,
    offline: 0,
    online: 0,
    alarm: 0,
    empty: 0,
    normal: 0,
  };
  for (const house of houses) {
    const { live } = house;
    const empty = live.mode === EMPTY_HOUSE_MODE || house.ageDays === null;
    counts.all += 1;
    if (empty) counts.empty += 1;
    if (!live.online) counts.offline += 1;
    else {
      counts.online += 1;
      if (live.alarm.count > 0) counts.alarm += 1;
      else if (!empty) counts.normal += 1;
    }
  }
  return counts;
}

/** Attention order of the home page: alarm, then offline, then furthest from target. */
export function attentionRank(house: StatusInput & { live: Pick<HouseLive, 'metrics'> }): number {
  const status = statusOf(house);
  if (status === 'alarm') return 0;
  if (status === 'offline') return 1;
  return 2;
}

/** How far the indoor temperature is from today's target (℃), or null without both. */
export function targetDeviation(live: Pick<HouseLive, 'metrics'>): number | null {
  const t = live.metrics['temperature'];
  const target = live.metrics['temperature_target'];
  if (t === undefined || target === undefined) return null;
  return Math.abs(t - target);
}
