import { describe, expect, it } from 'vitest';
import { AlarmChanges } from '../../src/screens/wall/alarmChanges';

const farmsOf = (changes: AlarmChanges) => {
  const farms: number[] = [];
  changes.raisedFarms.forEach((id) => farms.push(id));
  return farms;
};

describe('an update’s alarm changes', () => {
  it('keeps the newest few in the order they came, however many came', () => {
    const changes = new AlarmChanges(3);
    for (let houseId = 1; houseId <= 8; houseId += 1)
      changes.add(houseId % 2 ? 'raised' : 'cleared', houseId, 100 + houseId, 'nh3High', 'major');
    expect(changes.size).toBe(8);
    expect(changes.newest()).toEqual([
      { kind: 'cleared', houseId: 6, farmId: 106, cause: 'nh3High', severity: 'major' },
      { kind: 'raised', houseId: 7, farmId: 107, cause: 'nh3High', severity: 'major' },
      { kind: 'cleared', houseId: 8, farmId: 108, cause: 'nh3High', severity: 'major' },
    ]);
  });

  it('names each farm with a raise once, and the first raise of each severity', () => {
    const changes = new AlarmChanges(40);
    changes.add('raised', 1, 10, 'nh3High', 'major');
    changes.add('cleared', 2, 20, null, null);
    changes.add('raised', 3, 10, 'temperatureHigh', 'critical');
    changes.add('raised', 4, 30, 'co2High', 'major');
    changes.add('raised', 5, 40, 'temperatureLow', 'critical');
    expect(farmsOf(changes)).toEqual([10, 30, 40]);
    expect(changes.firstRaiseOfEachSeverity()).toEqual([
      { kind: 'raised', houseId: 1, farmId: 10, cause: 'nh3High', severity: 'major' },
      { kind: 'raised', houseId: 3, farmId: 10, cause: 'temperatureHigh', severity: 'critical' },
    ]);
  });

  it('starts each update empty, and what it answered stays as it was', () => {
    const changes = new AlarmChanges(2);
    changes.add('raised', 1, 10, 'nh3High', 'major');
    changes.add('raised', 2, 20, 'nh3High', 'major');
    const first = changes.newest();
    changes.clear();
    expect(changes.size).toBe(0);
    expect(changes.newest()).toEqual([]);
    expect(farmsOf(changes)).toEqual([]);
    expect(changes.firstRaiseOfEachSeverity()).toEqual([]);
    // The ring's objects are written over; the answer of the last update is not.
    changes.add('cleared', 3, 30, null, null);
    expect(changes.newest()).toEqual([
      { kind: 'cleared', houseId: 3, farmId: 30, cause: null, severity: null },
    ]);
    expect(first.map((c) => c.houseId)).toEqual([1, 2]);
    expect(first[0]).toMatchObject({ kind: 'raised', farmId: 10 });
  });
});
