import { describe, expect, it } from 'vitest';
import { type WallFarm } from '../../src/contract/wall';
import { farm, house } from './fixtures';
import { STATUS_UNCHANGED, type HouseLive } from '../../src/contract/live';
import { AlarmChanges } from '../../src/screens/wall/alarmChanges';
import { LiveTally } from '../../src/screens/wall/liveTally';
import { type TakenChanges } from '../../src/stores/houseChanges';
import { farmView, farmViews, type WallHouseInput } from '../../src/screens/wall/wallModel';

/** Applies what was taken and answers the alarm changes it brought, in order. */
function applied(
  tally: LiveTally,
  taken: readonly TakenChanges[],
  find: (houseId: number) => WallHouseInput | undefined,
  farms: Set<number>,
) {
  const changes = new AlarmChanges(100);
  tally.apply(taken, find, farms, changes);
  return changes.newest();
}

/**
 * The houses of a scope as the store holds them: `take` answers what changed since, as the
 * store's tracker does (houseChanges.ts): a change of the live part only with that part, a house
 * added, removed or changed otherwise as one to look up.
 */
function scope(houses: WallHouseInput[]) {
  const byId = new Map(houses.map((h) => [h.houseId, h]));
  let changed = new Map<number, WallHouseInput['live'] | null>(
    [...byId.keys()].map((id) => [id, null]),
  );
  return {
    set(h: WallHouseInput) {
      const before = byId.get(h.houseId);
      byId.set(h.houseId, h);
      const liveOnly =
        before !== undefined &&
        before.farmId === h.farmId &&
        before.headCount === h.headCount &&
        changed.get(h.houseId) !== null;
      changed.set(h.houseId, liveOnly ? h.live : null);
    },
    remove(houseId: number) {
      byId.delete(houseId);
      changed.set(houseId, null);
    },
    all: () => [...byId.values()],
    apply(tally: LiveTally, farms = new Set<number>()) {
      const taken = { ids: [...changed.keys()], lives: [...changed.values()] };
      changed = new Map();
      return applied(tally, [taken as TakenChanges], (id) => byId.get(id), farms);
    },
  };
}

describe('live tally', () => {
  it('counts houses, online, offline, in alarm, the alarm rate and the birds in 10K', () => {
    const tally = new LiveTally();
    const houses = scope([
      house(1, 1, true),
      house(2, 1, false),
      house(3, 1, true, 2),
      house(4, 1, true),
    ]);
    houses.apply(tally);
    expect(tally.counters()).toEqual({
      total: 4,
      online: 3,
      offline: 1,
      alarm: 1,
      alarmRate: 25,
      alive10k: 10,
    });
    expect(tally.alarmTotal).toBe(2);
  });

  it('ticks a raise and a clear, not the baseline, and forgets departed houses', () => {
    const tally = new LiveTally();
    const houses = scope([house(1, 1, true, 1)]);
    expect(houses.apply(tally)).toEqual([]);
    // A house that joins the scope after the baseline with an open alarm: a raise.
    houses.set(house(5, 1, true, 1));
    expect(houses.apply(tally)).toMatchObject([{ kind: 'raised', houseId: 5 }]);
    houses.set(house(6, 1, true, 0));
    expect(houses.apply(tally)).toEqual([]);
    houses.set(house(1, 1, true, 2));
    expect(houses.apply(tally)).toMatchObject([
      { kind: 'raised', houseId: 1, cause: 'nh3High', severity: 'major' },
    ]);
    houses.set(house(1, 1, true, 0));
    expect(houses.apply(tally)).toMatchObject([{ kind: 'cleared', houseId: 1 }]);
    for (const id of [1, 5, 6]) houses.remove(id);
    expect(houses.apply(tally)).toEqual([]);
    expect(tally.counters().total).toBe(0);
    // Nobody left: the farm shows what the server said of it again.
    expect(tally.farm(1)).toBeUndefined();
  });

  it('after any run of changes, shows every farm as a count of all the houses from scratch would', () => {
    // What the server said of each farm before any change: offline, one alarm.
    const farms = [1, 2, 3, 4, 5].map((id) =>
      farm(id, { houseCount: 3, worstState: 'offline', alarmCount: 1 }),
    );
    const region = (f: WallFarm) => f.provinceAdcode;
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const houses = scope(Array.from({ length: 20 }, (_, i) => house(i + 1, 1 + (i % 5), true)));
    const tally = new LiveTally();
    houses.apply(tally);
    for (let step = 0; step < 200; step++) {
      const id = 1 + random(24);
      if (random(10) === 0) houses.remove(id);
      else {
        const changed = house(
          id,
          1 + random(5),
          random(3) > 0,
          random(4) === 0 ? 1 + random(2) : 0,
        );
        // Mostly a change of its live part alone (its farm and size as they were).
        const before = houses.all().find((h) => h.houseId === id);
        if (before && random(4) > 0) changed.farmId = before.farmId;
        if (random(8) === 0) changed.headCount = 20_000;
        houses.set(changed);
      }
      if (random(3) > 0) continue;
      const changedFarms = new Set<number>();
      houses.apply(tally, changedFarms);
      const fromScratch = farmViews(farms, houses.all(), region);
      const kept = farms.map((f) => farmView(f, tally.farm(f.farmId), region(f), false));
      expect(kept).toEqual(fromScratch);
    }
  });

  it('counts packed statuses on top of the houses’ live parts, in the order they came, and names their raises and clears', () => {
    const tally = new LiveTally();
    const byId = new Map(
      [house(1, 1, true), house(2, 1, true), house(3, 2, false)].map((h) => [h.houseId, h]),
    );
    const find = (id: number) => byId.get(id);
    const farms = new Set<number>();
    applied(tally, [{ ids: [1, 2, 3], lives: [null, null, null] }], find, farms);
    const top = house(9, 1, true, 1).live.alarm.top;
    const U = STATUS_UNCHANGED;
    const changes = applied(
      tally,
      [
        // House 1 offline; house 2 raises an alarm; house 3's alarms stay, it comes online;
        // house 7 is unknown to the store and waits for a snapshot.
        { statuses: { houses: [1, 0, U, 2, U, 1, 3, 1, U, 7, 0, 1], tops: [top, null], at: 1 } },
        // A delta after the batch: house 1 online again.
        { ids: [1], lives: [house(1, 1, true).live as HouseLive] },
      ],
      find,
      (farms.clear(), farms),
    );
    expect(changes).toEqual([
      {
        kind: 'raised',
        houseId: 2,
        farmId: 1,
        cause: 'nh3High',
        severity: 'major',
      },
    ]);
    expect(tally.counters()).toMatchObject({ total: 3, online: 3, offline: 0, alarm: 1 });
    expect(tally.farm(1)).toEqual({ houses: 2, offline: 0, alarmHouses: 1, alarms: 1 });
    expect([...farms].sort()).toEqual([1, 2]);
    // The batch first, then what came after it: the other order would end with house 1 offline.
    applied(
      tally,
      [
        { ids: [1], lives: [house(1, 1, false).live as HouseLive] },
        { statuses: { houses: [1, 1, U, 2, U, 0], tops: [null], at: 2 } },
      ],
      find,
      farms,
    );
    expect(tally.counters()).toMatchObject({ online: 3, alarm: 0 });
    expect(
      applied(tally, [{ statuses: { houses: [2, U, 3], tops: [top], at: 3 } }], find, farms),
    ).toMatchObject([{ kind: 'raised', houseId: 2 }]);
    expect(
      applied(tally, [{ statuses: { houses: [2, U, 0], tops: [null], at: 4 } }], find, farms),
    ).toMatchObject([{ kind: 'cleared', houseId: 2, cause: null }]);
    expect(tally.alarmTotal).toBe(0);
  });
});
