import { autorun, runInAction } from 'mobx';
import { describe, expect, it } from 'vitest';
import { STATUS_UNCHANGED } from '../../src/contract/live';
import { type HouseOverview } from '../../src/contract/overview';
import { HousesStore, READING_BUFFER_POINTS } from '../../src/stores/HousesStore';
import { type TakenChanges } from '../../src/stores/houseChanges';

function row(
  houseId: number,
  over: Partial<HouseOverview['live']> = {},
  ageDays: number | null = 20,
): HouseOverview {
  return {
    houseId,
    houseName: `House ${houseId}`,
    farmId: 1,
    farmName: 'Farm',
    provinceName: null,
    networkId: null,
    gatewayType: null,
    breedName: null,
    ageDays,
    headCount: 1000,
    live: {
      houseId,
      online: true,
      network: null,
      gatewayVersion: null,
      onlineSince: null,
      lastSeenAt: null,
      lastTs: null,
      mode: 1,
      metrics: {},
      faults: {},
      devices: {},
      alarm: { count: 0, top: null },
      ...over,
    },
  };
}

describe('HousesStore', () => {
  it('upserts in place: a snapshot and a delta take the same path, twice is harmless', () => {
    const store = new HousesStore();
    store.applySnapshot([row(1), row(2)]);
    const house = store.get(1)!;
    store.applyDeltas([{ houseId: 1, metrics: { temperature: 25 } }]);
    store.applyDeltas([{ houseId: 1, metrics: { temperature: 25 } }]);
    expect(store.get(1)).toBe(house);
    expect(house.live.metrics['temperature']).toBe(25);
    store.applySnapshot([row(1, { metrics: { temperature: 26 } })]);
    expect(store.get(1)).toBe(house);
    expect(house.live.metrics['temperature']).toBe(26);
    expect(store.get(2)).toBeUndefined();
  });

  it('tells whoever reads a house’s name, live values or curves of their change, read before or after', () => {
    const store = new HousesStore();
    store.applySnapshot([row(1), row(2)]);
    const seen: string[] = [];
    // House 1 is read at once; house 2 first changes unread, then is read.
    const stops = [
      autorun(() => seen.push(`name ${store.get(1)!.houseName}`)),
      autorun(() => seen.push(`t ${store.get(1)!.live.metrics.temperature ?? '-'}`)),
      autorun(() => seen.push(`curve ${store.get(1)!.readings.temperature?.length ?? 0}`)),
    ];
    store.applySnapshot([
      { ...row(1), houseName: 'North' },
      { ...row(2), houseName: 'Quiet' },
    ]);
    store.applyDeltas([{ houseId: 1, metrics: { temperature: 25 } }]);
    store.setReadings(1, { temperature: [{ t: 1, v: 25 }] });
    store.applyDeltas([{ houseId: 2, metrics: { temperature: 30 } }]);
    // Read outside any derivation first, as the wall's tally reads every house: no subscription.
    runInAction(() => store.get(2)!.live.online && store.get(2)!.farmId);
    expect(store.get(2)!.houseName).toBe('Quiet');
    stops.push(
      autorun(() =>
        seen.push(`2: ${store.get(2)!.houseName} ${store.get(2)!.live.metrics.temperature}`),
      ),
    );
    store.applySnapshot([
      row(1, { metrics: { temperature: 25 } }),
      { ...row(2, { metrics: { temperature: 31 } }), houseName: 'Loud' },
    ]);
    for (const stop of stops) stop();
    expect(seen).toEqual([
      'name House 1',
      't -',
      'curve 0',
      'name North',
      // A snapshot's row brings a new live object: its readers run again (snapshots are rare).
      't -',
      't 25',
      'curve 1',
      '2: Quiet 30',
      'name House 1',
      't 25',
      '2: Loud 31',
    ]);
  });

  it('makes no atom for a house read outside any derivation, as the wall’s tally reads them all', () => {
    const store = new HousesStore();
    store.applySnapshot([row(1), row(2)]);
    const [one, two] = [store.get(1)!, store.get(2)!];
    runInAction(() => one.live.online && one.houseName && one.readings);
    // The atoms are the store's own, private to House: read here only to count them.
    const atoms = (house: typeof one) => [
      house['liveAtom'],
      house['infoAtom'],
      house['readingsAtom'],
    ];
    expect(atoms(one)).toEqual([null, null, null]);
    const stop = autorun(() => two.live.online && two.houseName && two.readings);
    expect(atoms(two).every((atom) => atom !== null)).toBe(true);
    stop();
  });

  it('counts statuses: offline > alarm > normal; empty', () => {
    const store = new HousesStore();
    store.applySnapshot([
      row(1, { online: false, alarm: { count: 1, top: null } }),
      row(2, { alarm: { count: 2, top: null } }),
      row(3, { mode: 99 }),
      row(4, {}, null),
      row(5),
    ]);
    expect(store.counts).toEqual({ all: 5, offline: 1, online: 4, alarm: 1, empty: 2, normal: 1 });
    expect(store.get(1)!.status).toBe('offline');
    expect(store.attention.map((h) => h.houseId).slice(0, 2)).toEqual([2, 1]);
    store.applyDeltas([{ houseId: 5, online: false }]);
    expect(store.counts.offline).toBe(2);
  });

  it('bounds the monitor curves and replaces them whole', () => {
    const store = new HousesStore();
    store.applySnapshot([row(1)]);
    const before = store.get(1)!.readings;
    for (let i = 1; i <= READING_BUFFER_POINTS + 10; i++)
      store.applyReading({
        houseId: 1,
        ts: i,
        mode: 1,
        metrics: { temperature: i },
        faults: {},
        devices: {},
      });
    const series = store.get(1)!.readings['temperature']!;
    expect(series).toHaveLength(READING_BUFFER_POINTS);
    expect(series.at(-1)).toEqual({ t: READING_BUFFER_POINTS + 10, v: READING_BUFFER_POINTS + 10 });
    expect(store.get(1)!.readings).not.toBe(before);
  });

  it('keeps the live values of a house when a delta repeats them, and tells a tracker only the changes it watches', () => {
    const store = new HousesStore();
    store.applySnapshot([row(1), row(2), row(3)]);
    const changes = store.watchChanges((a, b) => a.online !== b.online || a.alarm !== b.alarm);
    const ids = (taken: TakenChanges | undefined) =>
      taken && 'ids' in taken ? taken.ids.sort() : null;
    expect(changes.take()).toEqual([{ ids: [1, 2, 3], lives: [null, null, null] }]);
    const live = store.get(1)!.live;
    const revision = store.revision;
    // The same values again (a replay after a reconnection): nothing changes, nobody wakes.
    store.applyDeltas([{ houseId: 1, online: true, alarm: { count: 0, top: null }, metrics: {} }]);
    expect(store.get(1)!.live).toBe(live);
    expect(store.revision).toBe(revision);
    // A reading changes the house but not what the tracker watches.
    store.applyDeltas([{ houseId: 1, metrics: { temperature: 25 } }]);
    expect(store.get(1)!.live.metrics['temperature']).toBe(25);
    expect(store.get(1)!.live.alarm).toBe(live.alarm);
    expect(changes.take()).toEqual([]);
    store.applyDeltas([
      { houseId: 2, online: false },
      { houseId: 3, alarm: { count: 1, top: null } },
      { houseId: 9, online: false },
    ]);
    expect(store.revision).toBeGreaterThan(revision);
    // Each with the live part it left: the consumer need not look the houses up.
    expect(changes.take()).toEqual([
      { ids: [2, 3], lives: [store.get(2)!.live, store.get(3)!.live] },
    ]);
    expect(store.get(2)!.live.online).toBe(false);
    // A house re-read, then changed live: still to be looked up (more than its live part changed).
    store.applySnapshot([row(2, {}, 40)], false);
    store.applyDeltas([{ houseId: 2, online: true }]);
    expect(changes.take()).toEqual([{ ids: [2], lives: [null] }]);
    // A complete snapshot: every house in it, and the one that left.
    store.applySnapshot([row(1), row(2)]);
    expect(ids(changes.take()[0])).toEqual([1, 2, 3]);
    changes.dispose();
    store.applyDeltas([{ houseId: 1, online: false }]);
    expect(changes.take()).toEqual([]);
  });

  it('hands packed statuses to its trackers in order without writing them into the houses', () => {
    const store = new HousesStore();
    store.applySnapshot([row(1), row(2)]);
    const changes = store.watchChanges((a, b) => a.online !== b.online || a.alarm !== b.alarm);
    changes.take();
    const live = store.get(1)!.live;
    const revision = store.revision;
    const first = { houses: [1, 0, STATUS_UNCHANGED], tops: [], at: 1 };
    const second = { houses: [2, STATUS_UNCHANGED, 1], tops: [null], at: 2 };
    store.applyStatuses(first);
    // The house keeps its live part: the hub sends it whole once it is followed.
    expect(store.get(1)!.live).toBe(live);
    expect(store.revision).toBeGreaterThan(revision);
    store.applyDeltas([{ houseId: 2, online: false }]);
    store.applyStatuses(second);
    store.applyDeltas([{ houseId: 1, online: false }]);
    // What came after a batch stays after it, for the consumer to apply in that order.
    expect(changes.take()).toEqual([
      { statuses: first },
      { ids: [2], lives: [store.get(2)!.live] },
      { statuses: second },
      { ids: [1], lives: [store.get(1)!.live] },
    ]);
    expect(changes.take()).toEqual([]);
  });
});
