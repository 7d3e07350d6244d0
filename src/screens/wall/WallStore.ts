import {
  action,
  computed,
  computedStruct,
  createAtom,
  makeObservable,
  observable,
  observableRef,
  reaction,
} from 'mobx';
import { type HouseChanges, type LiveChangeFilter } from '../../stores/houseChanges';
import { type ApiClient } from '../../api/client';
import { alarmTodaySchema, type Alarm, type AlarmToday } from '../../contract/alarms';
import { wallMapSchema, type WallFarm } from '../../contract/wall';
import { wallProductionSchema, type WallProduction } from '../../contract/wallProduction';
import { LatestAnswer, polled, spreadRefreshes } from './wallReads';
import { type LiveStore } from '../../stores/LiveStore';
import { type ChinaCityCollection } from '../geo/geoTypes';
import {
  CLOCK_TICK_MS,
  MAX_PULSE_MARKERS,
  ACK_REFETCH_DELAY_MS,
  MAP_REFETCH_DEBOUNCE_MS,
  FARMS_RETRY_MS,
  STALE_AFTER_MS,
  TICKER_MAX_ENTRIES,
  TODAY_POLL_MS,
} from './constants';
import { FarmRanking } from './farmRanking';
import { FarmCurves } from './farmCurves';
import { WallDrill } from './wallDrill';
import { TickerFeed } from './tickerFeed';
import { AlarmChanges } from './alarmChanges';
import { type AlarmFeed } from './openAlarms';
import { LiveTally } from './liveTally';
import { IdMarks } from './idMarks';
import { FarmViewList, type ViewChanges } from './farmViewList';
import { fetchRegions, regionNameOf, RegionLookup, type Regions } from './wallRegions';
import {
  farmView,
  pulseMarkersOf,
  type PulseMarker,
  type AlarmChange,
  type FarmView,
  sameCounters,
  type WallCounters,
  type WallHouseInput,
} from './wallModel';

/** What the wall reads of the live houses (the console's HousesStore satisfies it). */
export interface WallHouses {
  readonly loaded: boolean;
  readonly all: readonly WallHouseInput[];
  /** Bumped by every change of the houses: the wall then asks its tracker which changed. */
  readonly revision: number;
  get(houseId: number): WallHouseInput | undefined;
  watchChanges(counts: LiveChangeFilter): HouseChanges;
  /** Status only but for `follow`, or (null) every field (see HousesStore.showStatusOnly). */
  showStatusOnly(follow: readonly number[] | null): void;
}

/** The wall shows only these live fields (a farm's state, the counters, the ticker). */
const wallFieldsChanged: LiveChangeFilter = (before, after) =>
  before.online !== after.online || before.alarm !== after.alarm;

/** What the wall reads from the console: the live houses and the connection (src/realtime feeds both). */
export interface WallSources {
  api: ApiClient;
  houses: WallHouses;
  live: Pick<LiveStore, 'state' | 'lastUpdateAt'>;
  /** The alarms live events brought (src/realtime feeds them): an acknowledgement stops a pulse. */
  alarms?: {
    readonly byId: { values(): Iterable<Pick<Alarm, 'state'>> };
    /** Each live alarm event as it comes: the list of open alarms is kept from them. */
    onEvent?: AlarmFeed['onEvent'];
  };
  /** Called for alarms raised while the wall runs (the audible alert): per batch, the first raise of each severity. */
  onRaised?: (change: AlarmChange) => void;
}

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/** The wall screen's own state: map data, drill-down, ticker, clock; bounded for weeks of running. */
export class WallStore {
  mapType: '1' | '2' | null = null;
  /** The deployment's zone, in which the wall counts days and hours; null until the map is read. */
  timeZone: string | null = null;
  farms: WallFarm[] = [];
  regions: Regions | null = null;
  /** Today's open and raised alarms by cause. */
  private readonly todayRead: LatestAnswer<AlarmToday>;
  /** The day's production and power of the scope. */
  private readonly productionRead: LatestAnswer<WallProduction>;
  /** The raises and clears seen while the wall runs, newest first. */
  readonly ticker = new TickerFeed();
  now = Date.now();
  /** The screen's language, for area names (the map files carry both). */
  language: 'en' | 'zh' = 'en';
  private readonly startedAt = Date.now();
  private readonly disposers: (() => void)[] = [];
  private readonly places = new RegionLookup();
  /** The views (see `views`) and the signal that one of them changed. */
  private readonly viewList = new FarmViewList();
  private readonly viewsChanged = createAtom('WallStore.views');
  counters: WallCounters = new LiveTally().counters();
  /** Open alarms of every house: a change means today's causes changed. */
  alarmTotal = 0;
  private readonly tally = new LiveTally();
  private changes: HouseChanges | null = null;
  /** The farms one update changed (see IdMarks), kept for the next. */
  private readonly changedFarms = new IdMarks();
  /**
   * Farms where a house raised an alarm since the farms were last fetched: that alarm is
   * unacknowledged, so the farm pulses without fetching every farm again (at 10,000 farms the
   * fetch and its validation cost more than a second's update).
   */
  private raisedSince = new Set<number>();
  /** The alarm raises and clears of one update, kept for the next (see AlarmChanges). */
  private readonly alarmChanges = new AlarmChanges(TICKER_MAX_ENTRIES);
  /** The marker slot of each pulsing farm (see pulseMarkers). */
  private readonly pulseSlots = new Map<number, number>();
  /** A failed read of the farms, tried again (see loadFarms). */
  private farmsRetry: ReturnType<typeof setTimeout> | null = null;

  /** Farms by open alarms and distance from target; refreshed with production. */
  readonly ranking: FarmRanking;
  /** The drilled farm's houses' last hours, for their small curves. */
  readonly curves: FarmCurves;
  /** The area and farm drilled into. */
  readonly drill = new WallDrill(
    (farmId) => this.views.find((view) => view.farmId === farmId)?.region,
  );

  constructor(private readonly sources: WallSources) {
    this.ranking = new FarmRanking(
      sources.api,
      () => this.views,
      (farmId) => {
        const tally = this.tally.farm(farmId);
        return tally !== undefined && tally.houses > 0 && tally.offline === tally.houses;
      },
    );
    this.curves = new FarmCurves(sources.api);
    this.todayRead = new LatestAnswer(sources.api, '/alarm/today', alarmTodaySchema);
    this.productionRead = new LatestAnswer(sources.api, '/wall/production', wallProductionSchema);
    makeObservable<WallStore, 'applyHouses'>(this, {
      counters: observableRef,
      alarmTotal: observable,
      pulseMarkers: computedStruct,
      mapType: observable,
      timeZone: observable,
      farms: observableRef,
      regions: observableRef,
      now: observable,
      language: observable,
      setLanguage: action,
      regionStates: computedStruct,
      stale: computed,
      dataAgeMs: computed,
      applyHouses: action,
    });
  }

  /**
   * Every farm as drawn, in the order of `farms`. Kept up to date from the houses that changed
   * (see applyHouses): at 10,000 farms a walk of every house each second cost more than the
   * whole update may. A farm's view is updated in place (see refreshView), and observers of
   * `views` are told when one changed, though the array is the same one (until the farms are
   * fetched again): a reaction to it needs `{ equals: everyChange }`. Hold a farm's fields, not
   * its view, to see them change. A new array of 10,000 each second was the largest garbage of
   * the wall that lived long enough to need a major GC (bench/wall.ts, its old-generation
   * allocations), and those GCs were its slowest updates.
   */
  get views(): readonly FarmView[] {
    this.viewsChanged.reportObserved();
    return this.viewList.list;
  }

  /** Which views changed since a reaction to `views` last ran (see FarmViewList.changedSince). */
  viewChangesSince(seen: number): ViewChanges {
    return this.viewList.changedSince(seen);
  }

  /**
   * The pulsing farms' markers (at most MAX_PULSE_MARKERS), each in a slot it keeps while it
   * pulses; a farm that starts pulsing takes a free slot. Keyed by slot, a marker is moved, never
   * mounted again, and compared by value the list renders only when a marker changes.
   */
  get pulseMarkers(): PulseMarker[] {
    return pulseMarkersOf(this.views, this.pulseSlots, MAX_PULSE_MARKERS);
  }

  get regionStates() {
    // Read for its changes: the counts follow every change of the views.
    void this.views;
    return this.viewList.regions.states();
  }

  /** Today's alarms by cause; null until read. */
  get today(): AlarmToday | null {
    return this.todayRead.value;
  }

  /** The day's production and power of the scope; null until read (or on an old server). */
  get production(): WallProduction | null {
    return this.productionRead.value;
  }

  get liveState() {
    return this.sources.live.state;
  }

  /** The houses of one farm, in the console's order. */
  housesOf(farmId: number): WallHouseInput[] {
    return this.sources.houses.all.filter((h) => h.farmId === farmId);
  }

  /** An area's name in the screen's language. */
  regionName(region: string | null): string {
    return regionNameOf(this.regions, region, this.language);
  }

  /** How old the shown data is: none while live (every change arrives at once). */
  get dataAgeMs(): number | null {
    const { state, lastUpdateAt } = this.sources.live;
    if (state === 'live') return 0;
    return lastUpdateAt === null ? null : Math.max(0, this.now - lastUpdateAt);
  }

  get stale(): boolean {
    const age = this.dataAgeMs ?? this.now - this.startedAt;
    return age > STALE_AFTER_MS;
  }

  start(): void {
    const tick = setInterval(
      action(() => {
        this.now = Date.now();
        this.drill.resetWhenIdle(this.now);
      }),
      CLOCK_TICK_MS,
    );
    // Production and power change with a saved record or a metered hour, which no live event
    // carries: they are read again on the wall's existing 30 s refresh, not on a timer of their own.
    const refreshes = spreadRefreshes(TODAY_POLL_MS, [
      () => void this.todayRead.load(),
      () => void this.productionRead.load(),
      () => {
        void this.ranking.load();
        if (this.drill.farmId !== null) void this.curves.load(this.drill.farmId);
      },
    ]);
    this.disposers.push(
      () => clearInterval(tick),
      refreshes,
      reaction(
        () => this.drill.farmId,
        (farmId) => void this.curves.load(farmId),
      ),
    );
    // The wall draws houses by their state and lists readings only of the drilled farm's houses:
    // the rest bring their status only, a fraction of what 10,000 changing houses send.
    this.disposers.push(
      reaction(
        () =>
          this.drill.farmId === null
            ? []
            : this.housesOf(this.drill.farmId).map((house) => house.houseId),
        (follow) => this.sources.houses.showStatusOnly(follow),
        { fireImmediately: true, equals: sameIds },
      ),
      () => this.sources.houses.showStatusOnly(null),
    );
    // Each change of the houses updates the farms it touched and feeds the ticker (the first
    // snapshot is the baseline). One number is observed, never each house.
    const changes = this.sources.houses.watchChanges(wallFieldsChanged);
    this.changes = changes;
    this.disposers.push(
      () => {
        changes.dispose();
        this.changes = null;
      },
      reaction(
        () => [this.sources.houses.revision, this.sources.houses.loaded],
        () => this.applyHouses(),
        // In a task of its own, after the frame that applied the batch to the houses: each part
        // of a 10,000-house second then stays well under a long task (50 ms).
        { fireImmediately: true, scheduler: (run) => setTimeout(run, 0) },
      ),
    );
    // New alarm total: today's causes changed. The farms are not fetched again: a raise marks its
    // farm as pulsing (raisedSince), an acknowledgement fetches them below.
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refetch = (withFarms: boolean, delayMs = MAP_REFETCH_DEBOUNCE_MS) => {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        if (withFarms) void this.loadFarms();
        void this.todayRead.load();
      }, delayMs);
    };
    this.disposers.push(
      reaction(
        () => this.alarmTotal,
        () => refetch(false),
      ),
      () => {
        if (timer !== null) clearTimeout(timer);
      },
    );
    // An acknowledgement leaves the house's alarm count as it was but ends the farm's pulse: the
    // farms' unacknowledged counts are fetched again.
    const alarms = this.sources.alarms;
    if (alarms)
      this.disposers.push(
        reaction(
          () => {
            let acknowledged = 0;
            for (const alarm of alarms.byId.values())
              if (alarm.state !== 'active') acknowledged += 1;
            return acknowledged;
          },
          // Acknowledgements come one at a time, by hand: no burst to wait out.
          () => refetch(true, ACK_REFETCH_DELAY_MS),
        ),
      );
    // Back to live after an outage: everything may have changed meanwhile.
    this.disposers.push(
      reaction(
        () => this.sources.live.state === 'live',
        (live) => {
          if (!live) return;
          void this.loadFarms();
          void this.todayRead.load();
          void this.productionRead.load();
        },
      ),
    );
    void this.loadFarms();
    void this.todayRead.load();
    void this.productionRead.load();
    void this.ranking.load();
  }

  /** Between start() and stop(): what it set up is still to undo. */
  private get started(): boolean {
    return this.disposers.length > 0;
  }

  stop(): void {
    for (const dispose of this.disposers.splice(0)) dispose();
    if (this.farmsRetry !== null) clearTimeout(this.farmsRetry);
    this.farmsRetry = null;
  }

  setLanguage(language: 'en' | 'zh'): void {
    this.language = language;
  }

  async loadFarms(): Promise<void> {
    try {
      const map = await this.sources.api.get('/wall/map', { schema: wallMapSchema, ...polled });
      const regions =
        map.mapType !== this.mapType || !this.regions
          ? await fetchRegions(map.mapType)
          : this.regions;
      // One action: the map must never see World regions with China's type (it would open
      // fitted to China).
      action(() => {
        if (regions !== this.regions) this.places.forgetFarms();
        this.regions = regions;
        this.mapType = map.mapType;
        this.timeZone = map.timeZone;
        this.farms = map.farms;
        // The fetched unacknowledged counts include every raise seen until now.
        this.raisedSince = new Set();
        this.rebuildViews();
      })();
    } catch {
      // Nothing else reads the farms again until an acknowledgement or a reconnect: a wall opened
      // while the server answered 503 (busy, seen at 10,000 farms in bench/wall.ts) stayed
      // without its map. Tried again shortly; the stale banner tells the wall meanwhile.
      if (this.farmsRetry === null && this.started)
        this.farmsRetry = setTimeout(() => {
          this.farmsRetry = null;
          void this.loadFarms();
        }, FARMS_RETRY_MS);
    }
  }

  /** The cities of a Chinese province, or null when none are shipped (Taiwan) or the fetch failed. */
  cities(adcode: string): Promise<ChinaCityCollection | null> {
    return this.places.cities(adcode, this.regions);
  }

  regionOf(farm: WallFarm): string | null {
    return this.places.regionOf(farm, this.mapType, this.regions);
  }

  /**
   * Takes in the houses changed since the last call: their farms' views, the counters and the
   * ticker. Before the first snapshot there is nothing to compare with; after a sign-out the
   * next snapshot is a new baseline.
   */
  private applyHouses(): void {
    const houses = this.sources.houses;
    const taken = this.changes?.take() ?? [];
    const changedFarms = this.changedFarms;
    changedFarms.clear();
    if (!houses.loaded) {
      this.tally.clear();
      this.rebuildViews();
    } else {
      const changes = this.alarmChanges;
      changes.clear();
      this.tally.apply(taken, (id) => houses.get(id), changedFarms, changes);
      this.applyChanges(changes);
      this.updateViews(changedFarms);
    }
    const counters = this.tally.counters();
    if (!sameCounters(counters, this.counters)) this.counters = counters;
    this.alarmTotal = this.tally.alarmTotal;
  }

  /** Every farm's view again (new farms, a new map, a new baseline). */
  private rebuildViews(): void {
    this.viewList.rebuild(this.farms, (farm) =>
      farmView(
        farm,
        this.tally.farm(farm.farmId),
        this.regionOf(farm),
        this.raisedSince.has(farm.farmId),
      ),
    );
    this.viewsChanged.reportChanged();
  }

  /**
   * The views of the farms that changed, updated in place; observers are told only when one
   * looks different.
   */
  private updateViews(farmIds: IdMarks): void {
    // `farms` read once, not in the loop: each read of an observable field cost MobX's
    // bookkeeping, ~1 ms a second in a storm of 5,000 changed farms.
    if (this.viewList.update(this.farms, farmIds, this.tally, this.raisedSince))
      this.viewsChanged.reportChanged();
  }

  /** The ticker's new entries (only the newest can show) and the farms that start pulsing. */
  private applyChanges(changes: AlarmChanges): void {
    if (changes.size === 0) return;
    this.ticker.add(changes, (houseId) => this.sources.houses.get(houseId)?.houseName);
    changes.raisedFarms.forEach(this.markRaised);
    // The alert beeps once for a batch anyway: one call per severity (its first raise) rather
    // than one per raise, which a storm of a few hundred made cost milliseconds.
    const { onRaised } = this.sources;
    if (onRaised) for (const change of changes.firstRaiseOfEachSeverity()) onRaised(change);
  }

  /** A farm where a house raised an alarm: it pulses (see raisedSince) and its view is redrawn. */
  private readonly markRaised = (farmId: number): void => {
    this.raisedSince.add(farmId);
    this.changedFarms.add(farmId);
  };
}

/**
 * A reaction's `equals` for `WallStore.views`: every change is one, though the array is the same.
 */
export const everyChange = (): boolean => false;
