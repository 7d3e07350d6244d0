import { action, computed, createAtom, makeObservable, observable, type IAtom } from 'mobx';
import {
  type HouseDelta,
  type HouseLive,
  type HouseReading,
  type HouseStatusBatch,
} from '../contract/live';
import { type HouseOverview } from '../contract/overview';
import {
  attentionRank,
  countStatuses,
  statusOf,
  targetDeviation,
  type HouseStatus,
  type StatusFilter,
} from './houseStatus';
import { ChangeTracker, withDelta, type HouseChanges, type LiveChangeFilter } from './houseChanges';
import { isTracking } from './tracking';

/**
 * Full-rate readings kept per metric for the monitor page: 24 h at one reading a minute is
 * 1,440; more would only cost memory a chart cannot show.
 */
export const READING_BUFFER_POINTS = 1_500;

export interface SeriesPoint {
  t: number;
  v: number;
}

/** A house's curves before the monitor asked for any: one object shared by every house. */
const NO_READINGS: Record<string, SeriesPoint[]> = Object.freeze({});

/** The static part of a house: replaced whole when a snapshot changes it. */
type HouseInfo = Omit<HouseOverview, 'houseId' | 'live'>;

/**
 * One house: static fields and its live part; updated in place so observers keep identity.
 * Three observable boxes per house (info, live, readings), each a plain atom made the first
 * time something reads it: with 20,000 houses, one observable property per field, then
 * `makeObservable` and two atoms per house, made building the store most of the overview's
 * first render (~300 ms), though a page reads a few hundred houses' boxes at most. An atom's
 * read and write also cost a fifth of an observable property's, and 10,000 houses change every
 * second on a wall. A box nobody has read has no atom, so its change tells nobody.
 *
 * Only a read inside a derivation (a reaction, a computed, an observer's render) reports itself.
 * A read in an action or a plain function subscribes nothing anyway, but reporting made the
 * atom (the wall's tally reads every house so: 20,000 atoms, with a Set each, in a 30 MB heap)
 * and queued it to be checked at the batch's end.
 */
export class House {
  readonly houseId: number;
  private infoNow: HouseInfo;
  private liveNow: HouseLive;
  private readingsNow: Record<string, SeriesPoint[]> = NO_READINGS;
  private infoAtom: IAtom | null = null;
  private liveAtom: IAtom | null = null;
  private readingsAtom: IAtom | null = null;
  /** Whether anything observes `live`: 10,000 writes a second need not report to nobody. */
  private liveObserved = false;

  constructor(row: HouseOverview) {
    this.houseId = row.houseId;
    this.liveNow = row.live;
    this.infoNow = infoOf(row);
  }

  /** The live values, replaced whole when one changes (never mutated). */
  get live(): HouseLive {
    if (isTracking())
      (this.liveAtom ??= createAtom(
        'House.live',
        () => (this.liveObserved = true),
        () => (this.liveObserved = false),
      )).reportObserved();
    return this.liveNow;
  }
  set live(live: HouseLive) {
    if (live === this.liveNow) return;
    this.liveNow = live;
    if (this.liveObserved) this.liveAtom?.reportChanged();
  }

  /** Monitor curves by metric; each array is replaced whole. */
  get readings(): Record<string, SeriesPoint[]> {
    if (isTracking()) (this.readingsAtom ??= createAtom('House.readings')).reportObserved();
    return this.readingsNow;
  }
  set readings(readings: Record<string, SeriesPoint[]>) {
    if (readings === this.readingsNow) return;
    this.readingsNow = readings;
    this.readingsAtom?.reportChanged();
  }

  private get info(): HouseInfo {
    if (isTracking()) (this.infoAtom ??= createAtom('House.info')).reportObserved();
    return this.infoNow;
  }

  get houseName(): string {
    return this.info.houseName;
  }
  get farmId(): number {
    return this.info.farmId;
  }
  get farmName(): string {
    return this.info.farmName;
  }
  get provinceName(): string | null {
    return this.info.provinceName;
  }
  get networkId(): string | null {
    return this.info.networkId;
  }
  get gatewayType(): number | null {
    return this.info.gatewayType;
  }
  get breedName(): string | null {
    return this.info.breedName;
  }
  get ageDays(): number | null {
    return this.info.ageDays;
  }
  get headCount(): number | null {
    return this.info.headCount;
  }

  /** Cheap and derived from observables: observers that read it track what it reads. */
  get status(): HouseStatus {
    return statusOf(this);
  }

  /** Takes a snapshot's row (inside the store's action). */
  assign(row: HouseOverview): void {
    const info = infoOf(row);
    if (!sameInfo(this.infoNow, info)) {
      this.infoNow = info;
      this.infoAtom?.reportChanged();
    }
    this.live = row.live;
  }

  /** The live values without telling MobX (the store compares a delta with them). */
  peekLive(): HouseLive {
    return this.liveNow;
  }
}

function infoOf(row: HouseOverview): HouseInfo {
  return {
    houseName: row.houseName,
    farmId: row.farmId,
    farmName: row.farmName,
    provinceName: row.provinceName,
    networkId: row.networkId,
    gatewayType: row.gatewayType,
    breedName: row.breedName,
    ageDays: row.ageDays,
    headCount: row.headCount,
  };
}

function sameInfo(a: HouseInfo, b: HouseInfo): boolean {
  for (const key of Object.keys(b) as (keyof HouseInfo)[]) if (a[key] !== b[key]) return false;
  return true;
}

/** One collator for every name sort (`localeCompare` with options builds one per call). */
export const houseNames = new Intl.Collator(undefined, { numeric: true });

export type HouseSort = 'farm' | 'name' | 'status' | 'deviation';

/**
 * The live connection as this store sees it. src/realtime implements it and the app's wiring
 * (src/wiring.ts) plugs it in, so pages ask the store and never the transport.
 */
export interface HouseFeed {
  /** Full-rate readings of one house until the returned function is called. */
  subscribeHouse(houseId: number): () => void;
  /**
   * Houses' status only (online, alarms), and every field of the `follow`ed houses; null: every
   * field of every house again (see `LiveDetail`).
   */
  showStatusOnly(follow: readonly number[] | null): void;
}

/** A house a page follows: how many follow it and how to stop the feed's subscription. */
interface Following {
  count: number;
  leave: () => void;
}

const NOTHING_TO_LEAVE = () => undefined;

/**
 * The houses of the user's scope, kept in a map by id so a delta finds its house without a
 * search; the live connection feeds it, pages read it.
 */
export class HousesStore {
  readonly byId = observable.map<number, House>({}, { deep: false });
  /** The same houses in a plain map: the live path looks 10,000 houses up a second untracked. */
  private readonly index = new Map<number, House>();
  /** False until the first snapshot arrived. */
  loaded = false;
  /**
   * Bumped once by every action in which a tracker (`watchChanges`) recorded a change. A screen
   * that keeps its own aggregates reacts to this one number and asks its tracker which houses
   * changed, instead of observing every house.
   */
  revision = 0;
  /** An array, not a set: it is walked for every changed house. */
  private trackers: ChangeTracker[] = [];
  private feed: HouseFeed | null = null;
  /** Followed houses outlive a connection: a new one (after a new sign-in) follows them too. */
  private readonly following = new Map<number, Following>();
  /** What `showStatusOnly` asked for, kept for the next feed. */
  private statusOnly: readonly number[] | null = null;

  constructor() {
    makeObservable(this, {
      loaded: observable,
      revision: observable,
      all: computed,
      byName: computed,
      counts: computed,
      attention: computed,
      applySnapshot: action,
      applyDeltas: action,
      applyStatuses: action,
      applyReading: action,
      setReadings: action,
      clear: action,
    });
  }

  get all(): House[] {
    return [...this.byId.values()];
  }

  /**
   * Every house by farm name, then house name (then ids): the base order of the overview. It
   * depends on names only, so live batches never sort 5,000 houses again.
   */
  get byName(): House[] {
    return this.all
      .map((house) => ({ house, farm: house.farmName, name: house.houseName }))
      .sort(
        (a, b) =>
          houseNames.compare(a.farm, b.farm) ||
          a.house.farmId - b.house.farmId ||
          houseNames.compare(a.name, b.name) ||
          a.house.houseId - b.house.houseId,
      )
      .map((entry) => entry.house);
  }

  get counts(): Record<StatusFilter, number> {
    return countStatuses(this.byId.values());
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
   * Follows a house at full rate (the monitor page, while it shows it) until the returned
   * function is called; two pages on one house share one subscription.
   */
  follow(houseId: number): () => void {
    const entry = this.following.get(houseId);
    if (entry) entry.count += 1;
    else
      this.following.set(houseId, {
        count: 1,
        leave: this.feed?.subscribeHouse(houseId) ?? NOTHING_TO_LEAVE,
      });
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const current = this.following.get(houseId);
      if (!current) return;
      current.count -= 1;
      if (current.count > 0) return;
      this.following.delete(houseId);
      current.leave();
    };
  }

  /** The houses pages follow now (tests; the connection asks its feed, not this). */
  get followed(): number[] {
    return [...this.following.keys()];
  }

  /**
   * Records which houses change from now on: those added, removed or in a snapshot, and those
   * whose live part changed in a way `counts` cares for (a wall that shows states need not hear
   * of every reading), and the packed statuses of houses heard in status only. The first `take`
   * answers every house present. Call `dispose` when done.
   */
  watchChanges(counts: LiveChangeFilter): HouseChanges {
    const tracker = new ChangeTracker(this.byId.keys(), counts, (t) => {
      this.trackers = this.trackers.filter((other) => other !== t);
    });
    this.trackers = [...this.trackers, tracker];
    return tracker;
  }

  /** Every tracker records these houses (added, removed, re-read). */
  private noteChanged(ids: readonly number[]): void {
    if (ids.length === 0 || this.trackers.length === 0) return;
    for (const tracker of this.trackers) tracker.mark(ids);
    this.revision += 1;
  }

  /** A house's live part was replaced: the trackers that watch a changed field record it. */
  private noteLive(houseId: number, before: HouseLive, after: HouseLive): boolean {
    let recorded = false;
    for (const tracker of this.trackers)
      if (tracker.noteLive(houseId, before, after)) recorded = true;
    return recorded;
  }

  /** Plugs in the live connection (or none): the houses followed now move over to it. */
  useFeed(feed: HouseFeed | null): void {
    for (const entry of this.following.values()) entry.leave();
    this.feed = feed;
    for (const [houseId, entry] of this.following)
      entry.leave = feed?.subscribeHouse(houseId) ?? NOTHING_TO_LEAVE;
    if (this.statusOnly) feed?.showStatusOnly(this.statusOnly);
  }

  /**
   * Until called with null, the houses change only in what decides their state (online,
   * alarms), except the `follow`ed ones: a screen of thousands of houses that shows readings of
   * a few (the wall) asks for this, and the connection carries a fraction of the changes.
   */
  showStatusOnly(follow: readonly number[] | null): void {
    this.statusOnly = follow;
    this.feed?.showStatusOnly(follow);
  }

  /**
   * Upserts every row in place. A complete snapshot (the whole scope) also drops houses that
   * left it; a partial one (one house) leaves the others alone. Applying it twice is harmless.
   */
  applySnapshot(rows: readonly HouseOverview[], complete = true): void {
    const seen = new Set<number>();
    // Every row counts as changed: snapshots are rare (a connection, a 30 s poll) and comparing
    // each row would cost about what the trackers' consumers save.
    const changed: number[] = [];
    for (const row of rows) {
      seen.add(row.houseId);
      changed.push(row.houseId);
      const house = this.index.get(row.houseId);
      if (house) house.assign(row);
      else {
        const added = new House(row);
        this.byId.set(row.houseId, added);
        this.index.set(row.houseId, added);
      }
    }
    if (complete) {
      for (const id of [...this.byId.keys()])
        if (!seen.has(id)) {
          this.byId.delete(id);
          this.index.delete(id);
          changed.push(id);
        }
      this.loaded = true;
    }
    this.noteChanged(changed);
  }

  /**
   * Live deltas carry only the changed top-level fields; unknown houses wait for a snapshot. A
   * house whose values are already those of the delta keeps its `live` object: nothing that
   * observes it runs again, and the trackers do not hear of it.
   */
  applyDeltas(deltas: readonly HouseDelta[]): void {
    let recorded = false;
    for (const delta of deltas) {
      const house = this.index.get(delta.houseId);
      if (!house) continue;
      const before = house.peekLive();
      const live = withDelta(before, delta);
      if (live === before) continue;
      house.live = live;
      if (this.noteLive(delta.houseId, before, live)) recorded = true;
    }
    if (recorded) this.revision += 1;
  }

  /**
   * Packed statuses of houses the page hears in status only (`showStatusOnly`). The houses do
   * not take them in: at 10,000 changes a second a new live part per house, and the trackers'
   * entry for each, were most of a wall's update and of its garbage. The hub remembers that
   * this page is behind on them and sends their latest full state once they are followed or
   * every field is asked for again. The trackers record the batch whole, for their consumers
   * to count (the wall's LiveTally).
   */
  applyStatuses(batch: HouseStatusBatch): void {
    if (this.trackers.length === 0 || batch.houses.length === 0) return;
    for (const tracker of this.trackers) tracker.noteStatuses(batch);
    this.revision += 1;
  }

  /** A full-rate reading of a subscribed house: its live values and its bounded curves. */
  applyReading(reading: HouseReading): void {
    const house = this.byId.get(reading.houseId);
    if (!house) return;
    // A gateway's resend of an older reading must not turn the values back.
    if (house.live.lastTs !== null && Date.parse(house.live.lastTs) > reading.ts) return;
    const before = house.live;
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
    if (this.noteLive(house.houseId, before, house.live)) this.revision += 1;
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
    const ids = [...this.byId.keys()];
    this.byId.clear();
    this.index.clear();
    this.loaded = false;
    this.noteChanged(ids);
  }
}
