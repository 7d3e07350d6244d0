import { describe, expect, it } from 'vitest';
import { type WallState } from '../../src/contract/wall';
import { RegionTally } from '../../src/screens/wall/regionTally';
import { worse, type FarmView } from '../../src/screens/wall/wallModel';

/** The oracle: each area's worst farm, worked out from every farm. */
function regionStates(views: readonly FarmView[]): Map<string, WallState> {
  const states = new Map<string, WallState>();
  for (const { region, worstState } of views) {
    if (!region) continue;
    states.set(region, worse(states.get(region) ?? 'normal', worstState));
  }
  return states;
}

const STATES: WallState[] = ['normal', 'offline', 'alarm'];

/** A small deterministic generator: the same moves on every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

describe('the areas’ states kept as farms change', () => {
  it('shades each area as its worst farm, as working it out from every farm would, through 2,000 moves', () => {
    const next = random(7);
    const regions = ['110000', '130000', '370000', null];
    const views = Array.from(
      { length: 60 },
      (_, i) => ({ farmId: i, region: regions[i % 4]!, worstState: 'normal' }) as FarmView,
    );
    const tally = new RegionTally();
    tally.reset(views);
    expect(tally.states()).toEqual(regionStates(views));
    for (let move = 0; move < 2_000; move += 1) {
      const view = views[Math.floor(next() * views.length)]!;
      const to = STATES[Math.floor(next() * 3)]!;
      tally.move(view.region, view.worstState, to);
      view.worstState = to;
      expect(tally.states(), `move ${move}`).toEqual(regionStates(views));
    }
  });

  it('turns an area back to normal when its last alarm clears, and forgets farms counted before a reset', () => {
    const views = [
      { farmId: 1, region: 'A', worstState: 'alarm' },
      { farmId: 2, region: 'A', worstState: 'offline' },
    ] as FarmView[];
    const tally = new RegionTally();
    tally.reset(views);
    expect(tally.states().get('A')).toBe('alarm');
    tally.move('A', 'alarm', 'normal');
    expect(tally.states().get('A')).toBe('offline');
    tally.move('A', 'offline', 'normal');
    expect(tally.states().get('A')).toBe('normal');
    tally.reset([{ farmId: 3, region: 'B', worstState: 'alarm' } as FarmView]);
    expect([...tally.states()]).toEqual([['B', 'alarm']]);
  });
});
