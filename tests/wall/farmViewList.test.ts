import { describe, expect, it } from 'vitest';
import { type HouseLive } from '../../src/contract/live';
import { STATE_RGB } from '../../src/screens/wall/constants';
import { FarmPoints } from '../../src/screens/wall/farmPoints';
import { FarmViewList } from '../../src/screens/wall/farmViewList';
import { AlarmChanges } from '../../src/screens/wall/alarmChanges';
import { LiveTally } from '../../src/screens/wall/liveTally';
import { farmView, type WallHouseInput } from '../../src/screens/wall/wallModel';
import { farm, house } from './fixtures';

const farms = [1, 2, 3, 4].map((id) =>
  farm(id, {
    houseCount: 1,
    longitude: 110 + id,
    latitude: 30,
    provinceAdcode: '37000' + (id % 2),
  }),
);

/** The views of `farms` kept from these houses, as the wall keeps them. */
function wall(houses: WallHouseInput[]) {
  const tally = new LiveTally();
  const byId = new Map(houses.map((h) => [h.houseId, h]));
  const list = new FarmViewList();
  const changedFarms = new Set<number>();
  const apply = (changed: WallHouseInput[]) => {
    for (const h of changed) byId.set(h.houseId, h);
    changedFarms.clear();
    const ids = changed.map((h) => h.houseId);
    tally.apply(
      [{ ids, lives: changed.map((h) => h.live as HouseLive) }],
      (id) => byId.get(id),
      changedFarms,
      new AlarmChanges(10),
    );
    return list.update(farms, changedFarms, tally, new Set());
  };
  tally.apply(
    [{ ids: [...byId.keys()], lives: [...byId.keys()].map(() => null) }],
    (id) => byId.get(id),
    changedFarms,
    new AlarmChanges(10),
  );
  list.rebuild(farms, (f) => farmView(f, tally.farm(f.farmId), f.provinceAdcode, false));
  return { list, apply };
}

const indices = (changed: { forEach(each: (i: number) => void): void } | null) => {
  if (!changed) return null;
  const out: number[] = [];
  changed.forEach((i) => out.push(i));
  return out;
};

describe('farm view list', () => {
  it('tells a consumer which views the one update since it looked changed, and to redraw all otherwise', () => {
    const { list, apply } = wall([1, 2, 3, 4].map((id) => house(id, id, true)));
    // The first look, and a look after a rebuild: everything.
    const first = list.changedSince(-1);
    expect(first.changed).toBeNull();

    // Farm 3's house goes offline, farm 2's raises an alarm: views 2 and 1 (by index) changed.
    expect(apply([house(3, 3, false), house(2, 2, true, 1), house(4, 4, true)])).toBe(true);
    const second = list.changedSince(first.generation);
    expect(indices(second.changed)?.sort()).toEqual([1, 2]);
    expect(list.list.map((v) => v.worstState)).toEqual(['normal', 'alarm', 'offline', 'normal']);
    // The area tally follows: one farm in alarm in 370000 (farm 2), one offline in 370001.
    expect(list.regions.states()).toEqual(
      new Map([
        ['370001', 'offline'],
        ['370000', 'alarm'],
      ]),
    );

    // A change that changes no view is no update; one who saw the last is not told of another.
    expect(apply([house(4, 4, true)])).toBe(false);
    expect(list.changedSince(second.generation).changed).toBeNull();

    // Two updates since a consumer looked: the last one's views are not all, so everything.
    apply([house(1, 1, false)]);
    const third = list.changedSince(second.generation);
    apply([house(1, 1, true)]);
    expect(list.changedSince(second.generation).changed).toBeNull();
    expect(indices(list.changedSince(third.generation).changed)).toEqual([0]);

    // Views made anew: one who saw every change before is told to redraw all.
    const beforeRebuild = list.changedSince(-1).generation;
    list.rebuild(farms, (f) => farmView(f, undefined, f.provinceAdcode, false));
    expect(list.changedSince(beforeRebuild).changed).toBeNull();
  });

  it('lets the farm points redraw only the changed views, as a walk of all of them would', () => {
    const { list, apply } = wall([1, 2, 3, 4].map((id) => house(id, id, true)));
    const partial = new FarmPoints(farms);
    const full = new FarmPoints(farms);
    let seen = list.changedSince(-1).generation;
    partial.update(list.list);
    for (const step of [
      [house(1, 1, false), house(4, 4, true, 2)],
      [house(1, 1, true)],
      [house(2, 2, false), house(3, 3, true, 1)],
      [house(4, 4, true)],
    ]) {
      apply(step);
      const { generation, changed } = list.changedSince(seen);
      seen = generation;
      expect(changed).not.toBeNull();
      partial.update(list.list, changed);
      full.update(list.list);
      expect([...partial.data.attributes.getFillColor.value]).toEqual([
        ...full.data.attributes.getFillColor.value,
      ]);
    }
    expect([...partial.data.attributes.getFillColor.value.subarray(4, 8)]).toEqual([
      ...STATE_RGB.offline,
      255,
    ]);
    expect([...partial.data.attributes.getFillColor.value.subarray(12, 16)]).toEqual([
      ...STATE_RGB.normal,
      255,
    ]);
  });
});
