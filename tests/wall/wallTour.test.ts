import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WallTour } from '../../src/contract/wallLayout';
import {
  placesOf,
  TOUR_PAUSE_MS,
  WallTourRunner,
  type TourPlace,
  type TourWall,
} from '../../src/screens/wall/wallTour';
import { worstFarmIds } from '../../src/screens/wall/worstFarms';
import { FarmRanking } from '../../src/screens/wall/farmRanking';
import type { FarmView } from '../../src/screens/wall/wallModel';
import type { ApiClient } from '../../src/api/client';
import { runInAction } from 'mobx';

/** A wall that records what the tour did to it, with the worst farms the test gives it. */
function fakeWall(worst: number[]) {
  const did: string[] = [];
  const wall: TourWall = {
    reset: () => did.push('reset'),
    selectFarm: (id) => did.push(`farm ${id}`),
    worstFarmIds: () => [...worst],
  };
  return { wall, did, worst };
}

const describePlace = (p: TourPlace | null) =>
  p === null
    ? 'none'
    : p.kind === 'farm'
      ? `farm ${p.farmId}`
      : p.kind === 'panel'
        ? p.panel
        : 'overview';

describe('the wall tour', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const TOUR: WallTour = { seconds: 10, stops: ['overview', 'worstFarms', 'night'] };

  it('expands worstFarms to the five worst farms, each a stop', () => {
    expect(placesOf(['worstFarms'], [9, 8, 7, 6, 5, 4, 3]).map(describePlace)).toEqual([
      'farm 9',
      'farm 8',
      'farm 7',
      'farm 6',
      'farm 5',
    ]);
    expect(placesOf(['overview', 'worstFarms', 'alarms'], []).map(describePlace)).toEqual([
      'overview',
      'alarms',
    ]);
  });

  it('steps through its stops every N seconds and starts the round again', () => {
    const { wall, did } = fakeWall([4, 2]);
    const tour = new WallTourRunner(wall, TOUR);
    tour.start();
    const seen = [describePlace(tour.place)];
    for (let i = 0; i < 5; i += 1) {
      vi.advanceTimersByTime(9_999);
      expect(describePlace(tour.place)).toBe(seen.at(-1));
      vi.advanceTimersByTime(1);
      seen.push(describePlace(tour.place));
    }
    expect(seen).toEqual(['overview', 'farm 4', 'farm 2', 'night', 'overview', 'farm 4']);
    expect(did).toEqual(['reset', 'farm 4', 'farm 2', 'reset', 'reset', 'farm 4']);
    tour.stop();
  });

  it('takes the worst farms of the moment the tour gets to them', () => {
    const { wall, worst } = fakeWall([1]);
    const tour = new WallTourRunner(wall, { seconds: 10, stops: ['worstFarms'] });
    tour.start();
    expect(describePlace(tour.place)).toBe('farm 1');
    worst.splice(0, 1, 7, 3);
    vi.advanceTimersByTime(10_000);
    expect(describePlace(tour.place)).toBe('farm 7');
    vi.advanceTimersByTime(10_000);
    expect(describePlace(tour.place)).toBe('farm 3');
    worst.splice(0);
    vi.advanceTimersByTime(10_000);
    expect(describePlace(tour.place)).toBe('overview');
    tour.stop();
  });

  it('pauses on a touch, holds for the pause after the last touch and resumes by itself', () => {
    const { wall, did } = fakeWall([4]);
    const tour = new WallTourRunner(wall, TOUR);
    tour.start();
    vi.advanceTimersByTime(10_000);
    expect(describePlace(tour.place)).toBe('farm 4');
    tour.pause();
    expect(tour.paused).toBe(true);
    vi.advanceTimersByTime(TOUR_PAUSE_MS - 1_000);
    tour.pause();
    vi.advanceTimersByTime(TOUR_PAUSE_MS - 1);
    expect(tour.paused).toBe(true);
    expect(did).toEqual(['reset', 'farm 4']);
    vi.advanceTimersByTime(1);
    expect(tour.paused).toBe(false);
    expect(describePlace(tour.place)).toBe('night');
    vi.advanceTimersByTime(10_000);
    expect(describePlace(tour.place)).toBe('overview');
    tour.stop();
  });

  it('drops a spotlit panel at once when somebody touches the wall', () => {
    const { wall } = fakeWall([]);
    const tour = new WallTourRunner(wall, { seconds: 10, stops: ['night', 'alarms'] });
    tour.start();
    expect(describePlace(tour.place)).toBe('night');
    tour.pause();
    expect(tour.place).toBeNull();
    vi.advanceTimersByTime(TOUR_PAUSE_MS);
    expect(describePlace(tour.place)).toBe('alarms');
    tour.stop();
  });

  it('tours the farms with an open alarm, most alarms first, then those well on the way to one', () => {
    const farm = (farmId: number, name: string, alarmCount: number) =>
      ({ farmId, name, alarmCount }) as FarmView;
    const views = [
      farm(1, 'A', 0),
      farm(2, 'B', 3),
      farm(3, 'C', 5),
      farm(4, 'D', 3),
      farm(5, 'E', 0),
    ];
    // Farm 2's houses are all offline; farm 5's too, but it has a reading the server ranked.
    const ranking = new FarmRanking(
      {} as ApiClient,
      () => views,
      (farmId) => farmId === 2 || farmId === 5,
    );
    const off = (farmId: number, share: number) => ({
      farmId,
      houseId: farmId * 10,
      houseName: 'House 1',
      metric: 'temperature' as const,
      value: 30,
      target: 25,
      limit: 30,
      share,
    });
    runInAction(() => {
      ranking.ranking = { farms: [off(1, 0.8), off(5, 0.2)], asOf: new Date().toISOString() };
    });
    expect(ranking.top.map((f) => f.farmId)).toEqual([3, 2, 4, 1, 5]);
    expect(worstFarmIds(ranking.top)).toEqual([3, 2, 4, 1]);
    // A farm in alarm whose houses all went dark says so instead of "on target".
    expect(ranking.top.filter((f) => f.offline).map((f) => f.farmId)).toEqual([2]);
  });
});
