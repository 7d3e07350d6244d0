import { action, computed, makeObservable, observable, observableRef } from 'mobx';
import { type HouseDelta, type HouseLive, type HouseReading } from '../contract/live';
import { type HouseOverview } from '../contract/overview';
import {
  attentionRank,
  matchesFilter,
  STATUS_FILTERS,
  statusOf,
  targetDeviation,
  type HouseStatus,
  type StatusFilter,
} from './houseStatus';

/**
 * Full-rate readings kept per metric for the monitor page: 24 h at one reading a minute is
 * 1,440; more would only cost memory a chart cannot show.
 */
export const READING_BUFFER_POINTS = 1_500;

export interface SeriesPoint {
  t: number;
  v: number;
}

/** One house: static fields and its live part; updated in place so observers keep identity. */
export class House {
  readonly houseId: number;
  houseName = '';
  farmId = 0;
  farmName = '';
  provinceName: string | null = null;
  networkId: string | null = null;
  gatewayType: number | null = null;
  breedName: string | null = null;
  ageDays: number | null = null;
  headCount: number | null = null;
  live: HouseLive;
  /** Monitor curves by metric; each array is replaced whole (observable.ref). */
  readings: Record<string, SeriesPoint[]> = {};

  constructor(row: HouseOverview) {
    this.houseId = row.houseId;
    this.live = row.live;
    this.assign(row);
    makeObservable(this, {
      houseName: true,
      farmId: true,
      farmName: true,
      provinceName: true,
      networkId: true,
      gatewayType: true,
      breedName: true,
      ageDays: true,
      headCount: true,
      live: observableRef,
      readings: observableRef,
      status: computed,
      assign: action,
    });
  }

  get status(): HouseStatus {
    return statusOf(this);
  }

  assign(row: HouseOverview): void {
    this.houseName = row.houseName;
    this.farmId = row.farmId;
    this.farmName = row.farmName;
    this.provinceName = row.provinceName;
    this.networkId = row.networkId;
    this.gatewayType = row.gatewayType;
    this.breedName = row.breedName;
    this.ageDays = row.ageDays;
    this.headCount = row.headCount;
    this.live = row.live;
  }
}

export type HouseSort = 'farm' | 'name' | 'status' | 'deviation';

/** The houses of the user's scope, id-keyed (STYLE.md #2); realtime feeds it, pages read it. */
export class HousesStore {
  readonly byId = observable.map<number, House>({}, { deep: false });
  /** False until the first snapshot arrived. */
  loaded = false;

  constructor() {
    makeObservable(this, {
      loaded: observable,
      all: computed,
      counts: computed,
      attention: computed,
      applySnapshot: action,
      applyDeltas: action,
      applyReading: action,
      setReadings: action,
      clear: action,
    });
  }

  get all(): House[] {
    return [...this.byId.values()];
  }

  get counts(): Record<StatusFilter, number> {
    const counts = Object.fromEntries(STATUS_FILTERS.map((f) => [f, 0])) as Record<
      StatusFilter,
      number
    >;
    for (const house of this.byId.values())
      for (const filter of STATUS_FILTERS) if (matchesFilter(house, filter)) counts[filter] += 1;
    return counts;
  }

  /** Houses that need attention first: alarm, then offline, then furthest from target. */
  get attention(): House[] {
    return this.all
      .map((house) => ({
        house,
        rank: attentionRank(house),
        dev: targetDeviation(house.live) ?? 0,
      }))
      .sort((a, b) => a.rank - b.rank || b.dev - a.dev)
      .map((entry) => entry.house);
  }

  get(houseId: number): House | undefined {
    return this.byId.get(houseId);
  }

  /**
   * Upserts every row in place. A complete snapshot (the whole scope) also drops houses that
   * left it; a partial one (one house) leaves the others alone. Applying it twice is harmless.
   */
  applySnapshot(rows: readonly HouseOverview[], complete = true): void {
    const seen = new Set<number>();
    for (const row of rows) {
      seen.add(row.houseId);
      const house = this.byId.get(row.houseId);
      if (house) house.assign(row);
      else this.byId.set(row.houseId, new House(row));
    }
    if (complete) {
      for (const id of [...this.byId.keys()]) if (!seen.has(id)) this.byId.delete(id);
      this.loaded = true;
    }
  }

  /** Live deltas carry only the changed top-level fields; unknown houses wait for a snapshot. */
  applyDeltas(deltas: readonly HouseDelta[]): void {
    for (const delta of deltas) {
      const house = this.byId.get(delta.houseId);
      if (house) house.live = { ...house.live, ...delta };
    }
  }

  /** A full-rate reading of a subscribed house: its live values and its bounded curves. */
  applyReading(reading: HouseReading): void {
    const house = this.byId.get(reading.houseId);
    if (!house) return;
    // A gateway's resend of an older reading must not turn the values back.
    if (house.live.lastTs !== null && Date.parse(house.live.lastTs) > reading.ts) return;
    house.live = {
      ...house.live,
      mode: reading.mode ?? house.live.mode,
      metrics: { ...house.live.metrics, ...reading.metrics },
      faults: reading.faults,
      devices: { ...house.live.devices, ...reading.devices },
      lastTs: new Date(reading.ts).toISOString(),
    };
    const next: Record<string, SeriesPoint[]> = { ...house.readings };
    for (const [metric, value] of Object.entries(reading.metrics)) {
      const series = next[metric] ?? [];
      const last = series.at(-1);
      if (last && last.t >= reading.ts) continue;
      const appended = [...series, { t: reading.ts, v: value }];
      next[metric] =
        appended.length > READING_BUFFER_POINTS ? appended.slice(-READING_BUFFER_POINTS) : appended;
    }
    house.readings = next;
  }

  /** The 24-hour curves from the trend endpoint, before live readings extend them. */
  setReadings(houseId: number, readings: Record<string, SeriesPoint[]>): void {
    const house = this.byId.get(houseId);
    if (!house) return;
    const bounded: Record<string, SeriesPoint[]> = {};
    for (const [metric, points] of Object.entries(readings))
      bounded[metric] = points.slice(-READING_BUFFER_POINTS);
    house.readings = bounded;
  }

  clear(): void {
    this.byId.clear();
    this.loaded = false;
  }
}
