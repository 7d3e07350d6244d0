import { type AlarmCause, type AlarmSeverity } from '../../contract/alarms';
import { type HouseLive } from '../../contract/live';
import { WALL_STATES, type WallFarm, type WallState } from '../../contract/wall';
import { type AreaGeometry, type LngLat } from '../geo/geoTypes';

/** What the wall needs of a house (the console's House satisfies it). */
export interface WallHouseInput {
  houseId: number;
  houseName: string;
  farmId: number;
  headCount: number | null;
  live: Pick<HouseLive, 'online' | 'alarm' | 'metrics'>;
}

/** An open alarm outweighs a lost connection, which outweighs normal. */
export function houseState(house: Pick<WallHouseInput, 'live'>): WallState {
  if (house.live.alarm.count > 0) return 'alarm';
  if (!house.live.online) return 'offline';
  return 'normal';
}

const RANK: Record<WallState, number> = { alarm: 2, offline: 1, normal: 0 };

export function worse(a: WallState, b: WallState): WallState {
  return RANK[a] >= RANK[b] ? a : b;
}

/** One farm as drawn: its place from the server, its state from the live houses. */
export interface FarmView extends WallFarm {
  /** True while it has an alarm nobody acknowledged (the point pulses). */
  pulsing: boolean;
  /** The map area it counts in: province adcode (China) or country id (World). */
  region: string | null;
}

/** A farm's live houses, by what decides its state. */
export interface FarmTally {
  houses: number;
  offline: number;
  /** Houses with at least one open alarm. */
  alarmHouses: number;
  /** Open alarms of all its houses. */
  alarms: number;
}

/** The worst state among a farm's houses (as `houseState` ranks them). */
export function tallyState(tally: FarmTally): WallState {
  if (tally.alarmHouses > 0) return 'alarm';
  if (tally.offline > 0) return 'offline';
  return 'normal';
}

/**
 * One farm with its live state: the houses the console keeps live (`now`, absent when none is
 * known) override the server's snapshot, so a delta turns a point at once. An alarm count above
 * the snapshot's means a new, unacknowledged alarm, and so is one raised since the snapshot.
 */
export function farmView(
  farm: WallFarm,
  now: FarmTally | undefined,
  region: string | null,
  raisedSince: boolean,
): FarmView {
  // Field by field, not a spread: this runs for every farm of a snapshot.
  const view: FarmView = {
    farmId: farm.farmId,
    name: farm.name,
    provinceAdcode: farm.provinceAdcode,
    provinceName: farm.provinceName,
    longitude: farm.longitude,
    latitude: farm.latitude,
    unacknowledged: farm.unacknowledged,
    houseCount: farm.houseCount,
    worstState: farm.worstState,
    alarmCount: farm.alarmCount,
    pulsing: false,
    region,
  };
  // The live fields are worked out in one place, for a new view and a kept one alike.
  refreshView(view, farm, now, raisedSince);
  return view;
}

/**
 * Brings a farm's view up to date in place with its live houses (as `farmView` would make it);
 * true when it now draws or lists differently. A live update changes thousands of farms a
 * second at 10,000 farms: a new object for each would outlive the young generation (the views
 * are kept) and cost the garbage collector more than the update itself.
 */
export function refreshView(
  view: FarmView,
  farm: WallFarm,
  now: FarmTally | undefined,
  raisedSince: boolean,
): boolean {
  const alarmCount = now ? now.alarms : farm.alarmCount;
  const houseCount = now ? now.houses : farm.houseCount;
  const worstState = now ? tallyState(now) : farm.worstState;
  const pulsing =
    alarmCount > 0 && (farm.unacknowledged > 0 || alarmCount > farm.alarmCount || raisedSince);
  if (
    view.alarmCount === alarmCount &&
    view.houseCount === houseCount &&
    view.worstState === worstState &&
    view.pulsing === pulsing
  )
    return false;
  view.alarmCount = alarmCount;
  view.houseCount = houseCount;
  view.worstState = worstState;
  view.pulsing = pulsing;
  return true;
}

/** Every farm with its live state (`farmView` of each), from all the houses at once. */
export function farmViews(
  farms: readonly WallFarm[],
  houses: Iterable<WallHouseInput>,
  regionOf: (farm: WallFarm) => string | null,
  raisedSince: ReadonlySet<number> = new Set(),
): FarmView[] {
  const live = new Map<number, FarmTally>();
  for (const house of houses) {
    const entry = live.get(house.farmId) ?? { houses: 0, offline: 0, alarmHouses: 0, alarms: 0 };
    entry.houses += 1;
    if (!house.live.online) entry.offline += 1;
    if (house.live.alarm.count > 0) entry.alarmHouses += 1;
    entry.alarms += house.live.alarm.count;
    live.set(house.farmId, entry);
  }
  return farms.map((farm) =>
    farmView(farm, live.get(farm.farmId), regionOf(farm), raisedSince.has(farm.farmId)),
  );
}

export interface WallCounters {
  total: number;
  online: number;
  offline: number;
  alarm: number;
  /** Percent of houses in alarm, one decimal. */
  alarmRate: number;
  /** Live birds in units of 10,000 (the 万 of the Chinese screen). */
  alive10k: number;
}

/** Ray casting on one ring ([lng, lat] pairs). */
function inRing(point: LngLat, ring: readonly (readonly number[])[]): boolean {
  let inside = false;
  const [x, y] = point;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi = 0, yi = 0] = ring[i] ?? [];
    const [xj = 0, yj = 0] = ring[j] ?? [];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether a point lies in a polygon or multipolygon (holes respected). */
export function containsPoint(geometry: AreaGeometry, point: LngLat): boolean {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return polygons.some(
    ([outer, ...holes]) =>
      outer !== undefined && inRing(point, outer) && !holes.some((hole) => inRing(point, hole)),
  );
}

/** [[west, south], [east, north]] of a geometry, for fitting the camera to it. */
export function boundsOf(geometry: AreaGeometry): [LngLat, LngLat] {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  for (const polygon of polygons)
    for (const [lng = 0, lat = 0] of polygon[0] ?? []) {
      west = Math.min(west, lng);
      east = Math.max(east, lng);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  return [
    [west, south],
    [east, north],
  ];
}

/** A change seen between two states of a house's alarms, for the ticker. */
export interface AlarmChange {
  kind: 'raised' | 'cleared';
  houseId: number;
  farmId: number;
  cause: AlarmCause | null;
  severity: AlarmSeverity | null;
}

/** A pulsing farm's marker: only what drawing it needs. */
export interface PulseMarker {
  /** Its marker: kept while the farm pulses, then given to the next farm that starts. */
  slot: number;
  farmId: number;
  longitude: number;
  latitude: number;
  houseCount: number;
}

/**
 * The pulsing farms' markers (at most `max`), each in a slot it keeps while it pulses; a farm
 * that starts pulsing takes a free slot. `slots` (farm → slot) is updated in place. Keyed by
 * slot, a marker is moved, never mounted again.
 */
export function pulseMarkersOf(
  views: readonly FarmView[],
  slots: Map<number, number>,
  max: number,
): PulseMarker[] {
  const wanted: Omit<PulseMarker, 'slot'>[] = [];
  for (const f of views) {
    if (wanted.length >= max) break;
    if (f.pulsing && f.longitude !== null && f.latitude !== null)
      wanted.push({
        farmId: f.farmId,
        longitude: f.longitude,
        latitude: f.latitude,
        houseCount: f.houseCount,
      });
  }
  const ids = new Set(wanted.map((m) => m.farmId));
  for (const id of [...slots.keys()]) if (!ids.has(id)) slots.delete(id);
  const used = new Set(slots.values());
  let free = 0;
  const markers = wanted.map((m) => {
    let slot = slots.get(m.farmId);
    if (slot === undefined) {
      while (used.has(free)) free += 1;
      slot = free;
      used.add(slot);
      slots.set(m.farmId, slot);
    }
    return { ...m, slot };
  });
  return markers.sort((a, b) => a.slot - b.slot);
}

/**
 * Visits the worst farms first (alarm, offline, normal; the views' order within), at most `max`,
 * with their place in that order; answers how many it visited. One pass per state instead of
 * sorting every farm each second, and nothing allocated: the screen reader's list is written
 * from it every second in a storm (FarmLines).
 */
export function eachWorstFarm(
  views: readonly FarmView[],
  max: number,
  visit: (view: FarmView, place: number) => void,
): number {
  let place = 0;
  for (const state of WALL_STATES)
    for (const f of views) {
      if (place >= max) return place;
      if (f.worstState === state) visit(f, place++);
    }
  return place;
}

/** Whether two counter sets show the same: an unchanged set is not replaced (no render). */
export function sameCounters(a: WallCounters, b: WallCounters): boolean {
  return (
    a.total === b.total &&
    a.online === b.online &&
    a.alarm === b.alarm &&
    a.alarmRate === b.alarmRate &&
    a.alive10k === b.alive10k
  );
}
