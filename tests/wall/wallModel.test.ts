import { describe, expect, it } from 'vitest';
import { type WallFarm } from '../../src/contract/wall';
import { farm, house } from './fixtures';
import {
  boundsOf,
  containsPoint,
  farmViews,
  pulseMarkersOf,
  eachWorstFarm,
  refreshView,
} from '../../src/screens/wall/wallModel';
import { type AreaGeometry } from '../../src/screens/geo/geoTypes';
import { RegionTally } from '../../src/screens/wall/regionTally';

describe('wall model', () => {
  it('keeps a pulsing farm in its marker slot while others start and stop, and gives a free slot to a new one', () => {
    const region = (f: WallFarm) => f.provinceAdcode;
    const views = (alarmed: number[]) =>
      farmViews(
        [1, 2, 3, 4].map((id) => farm(id, { unacknowledged: 1 })),
        [1, 2, 3, 4].map((id) => house(id, id, true, alarmed.includes(id) ? 1 : 0)),
        region,
      );
    const slots = new Map<number, number>();
    const slotOf = (markers: { farmId: number; slot: number }[]) =>
      Object.fromEntries(markers.map((m) => [m.farmId, m.slot]));
    expect(slotOf(pulseMarkersOf(views([1, 2, 3]), slots, 10))).toEqual({ 1: 0, 2: 1, 3: 2 });
    // Farm 1 stops, farm 4 starts: 2 and 3 keep their markers, 4 takes the one 1 left.
    expect(slotOf(pulseMarkersOf(views([2, 3, 4]), slots, 10))).toEqual({ 2: 1, 3: 2, 4: 0 });
    expect(pulseMarkersOf(views([1, 2, 3, 4]), slots, 2)).toHaveLength(2);
    // The screen reader's list: alarm first, then offline, then normal, bounded.
    const listed: { farmId: number; state: string; place: number }[] = [];
    const shown = eachWorstFarm(
      farmViews(
        [farm(1), farm(2), farm(3)],
        [house(1, 1, true), house(2, 2, false), house(3, 3, true, 1)],
        region,
      ),
      2,
      (f, place) => listed.push({ farmId: f.farmId, state: f.worstState, place }),
    );
    expect(shown).toBe(2);
    expect(listed.map((f) => f.place)).toEqual([0, 1]);
    expect(listed.map((f) => [f.farmId, f.state])).toEqual([
      [3, 'alarm'],
      [2, 'offline'],
    ]);
  });

  it('pulses a farm whose alarm was raised since the farms were fetched, though its count is no higher than then', () => {
    // Fetched with one acknowledged alarm; it cleared and a new one was raised: still one alarm.
    const farms = [farm(1, { alarmCount: 1, unacknowledged: 0, worstState: 'alarm' }), farm(2)];
    const houses = [house(1, 1, true, 1), house(2, 2, true)];
    const region = (f: WallFarm) => f.provinceAdcode;
    expect(farmViews(farms, houses, region)[0]?.pulsing).toBe(false);
    expect(farmViews(farms, houses, region, new Set([1]))[0]?.pulsing).toBe(true);
    // Raised, then cleared: nothing left to pulse for.
    expect(farmViews(farms, [house(1, 1, true, 0)], region, new Set([1]))[0]?.pulsing).toBe(false);
  });

  it('gives a farm its worst house state (alarm over offline over normal) and its region the worst farm', () => {
    const farms = [
      farm(1),
      farm(2, { provinceAdcode: '130000' }),
      farm(3, { provinceAdcode: '130000' }),
    ];
    const houses = [
      house(1, 1, true),
      house(2, 1, false),
      house(3, 2, false, 1),
      house(4, 3, true),
    ];
    const views = farmViews(farms, houses, (f) => f.provinceAdcode);
    expect(views.map((v) => v.worstState)).toEqual(['offline', 'alarm', 'normal']);
    // An alarm above the snapshot's count is new, hence unacknowledged: the point pulses.
    expect(views[1]!.pulsing).toBe(true);
    const regions = new RegionTally();
    regions.reset(views);
    expect(Object.fromEntries(regions.states())).toEqual({
      '370000': 'offline',
      '130000': 'alarm',
    });
  });

  it('brings a farm view up to date in place as farmView would make it, and says when it changed', () => {
    const farms = [farm(1, { alarmCount: 0, unacknowledged: 0 })];
    const region = (f: WallFarm) => f.provinceAdcode;
    const [view] = farmViews(farms, [house(1, 1, true)], region);
    const tally = { houses: 2, offline: 1, alarmHouses: 1, alarms: 1 };
    expect(refreshView(view!, farms[0]!, tally, false)).toBe(true);
    expect(view).toEqual(farmViews(farms, [house(1, 1, false), house(2, 1, true, 1)], region)[0]);
    expect(view).toMatchObject({ worstState: 'alarm', houseCount: 2, pulsing: true });
    expect(refreshView(view!, farms[0]!, { ...tally }, false)).toBe(false);
  });

  it('finds a point in a polygon with a hole and bounds a multipolygon', () => {
    const square: AreaGeometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [10, 0],
          [10, 10],
          [0, 10],
          [0, 0],
        ],
        [
          [4, 4],
          [6, 4],
          [6, 6],
          [4, 6],
          [4, 4],
        ],
      ],
    };
    expect(containsPoint(square, [2, 2])).toBe(true);
    expect(containsPoint(square, [5, 5])).toBe(false);
    expect(containsPoint(square, [12, 5])).toBe(false);
    const multi: AreaGeometry = {
      type: 'MultiPolygon',
      coordinates: [
        square.coordinates,
        [
          [
            [20, -5],
            [30, -5],
            [30, 1],
            [20, -5],
          ],
        ],
      ],
    };
    expect(boundsOf(multi)).toEqual([
      [0, -5],
      [30, 10],
    ]);
  });
});
