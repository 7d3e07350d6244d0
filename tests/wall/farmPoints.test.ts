import { describe, expect, it } from 'vitest';
import { STATE_RGB } from '../../src/screens/wall/constants';
import { FarmPoints, radiusOf } from '../../src/screens/wall/farmPoints';
import { farmViews } from '../../src/screens/wall/wallModel';
import { farm, house } from './fixtures';

describe('farm points', () => {
  const farms = [
    farm(1, { longitude: 110, latitude: 30 }),
    farm(2, { longitude: null, latitude: null }),
    farm(3, { longitude: 120, latitude: 40 }),
  ];
  const region = () => '370000';
  const colorOf = (points: FarmPoints, row: number) => [
    ...points.data.attributes.getFillColor.value.subarray(4 * row, 4 * row + 4),
  ];

  it('turns and resizes only the points whose farm changed after a delta, keeping their places', () => {
    const points = new FarmPoints(farms);
    // Farm 2 has no place: two rows, farms 1 and 3.
    expect(points.data.length).toBe(2);
    expect(points.farms.map((f) => f.farmId)).toEqual([1, 3]);
    expect([...points.data.attributes.getPosition.value]).toEqual([110, 30, 120, 40]);
    const before = points.data;

    // Farm 3's houses: one in alarm, one offline, one fine (three houses now).
    const changed = points.update(
      farmViews(farms, [house(31, 3, true, 1), house(32, 3, false), house(33, 3, true)], region),
    );
    expect(changed).toBe(true);
    expect(colorOf(points, 0)).toEqual([...STATE_RGB.normal, 255]);
    expect(colorOf(points, 1)).toEqual([...STATE_RGB.alarm, 255]);
    expect(points.data.attributes.getRadius.value[1]).toBeCloseTo(radiusOf({ houseCount: 3 }));
    expect(points.data.attributes.getRadius.value[0]).toBeCloseTo(radiusOf({ houseCount: 2 }));
    expect([...points.data.attributes.getPosition.value]).toEqual([110, 30, 120, 40]);
    // deck.gl uploads an attribute only when handed an array it has not seen.
    expect(points.data.attributes.getFillColor.value).not.toBe(
      before.attributes.getFillColor.value,
    );
    expect(points.data.attributes.getRadius.value).not.toBe(before.attributes.getRadius.value);
    expect(points.data.attributes.getPosition).toBe(before.attributes.getPosition);

    // The same state again: nothing to draw anew.
    const same = points.data;
    expect(
      points.update(
        farmViews(farms, [house(31, 3, true, 1), house(32, 3, false), house(33, 3, true)], region),
      ),
    ).toBe(false);
    expect(points.data).toBe(same);

    // Farm 1 goes offline: its point turns grey, farm 3's stays red.
    points.update(
      farmViews(
        farms,
        [house(11, 1, false), house(31, 3, true, 1), house(32, 3, false), house(33, 3, true)],
        region,
      ),
    );
    expect(colorOf(points, 0)).toEqual([...STATE_RGB.offline, 255]);
    expect(colorOf(points, 1)).toEqual([...STATE_RGB.alarm, 255]);
  });
});
