import { action, autorun, computed, observable, reaction, runInAction, untracked } from 'mobx';
import { describe, expect, it } from 'vitest';
import { isTracking } from '../../src/stores/tracking';

/**
 * The stores skip their own atoms on reads that subscribe nothing, asking `isTracking`, which
 * rests on MobX's public contract for `reportObserved()`. A MobX release that changes it fails
 * here: reads in a derivation would stop subscribing (stale screens), or every read would make
 * an atom (the wall's memory).
 */
describe('whether a read is tracked', () => {
  it('is tracked in a reaction, an autorun and a computed that something observes', () => {
    const seen: boolean[] = [];
    const box = observable.box(0);
    const doubled = computed(() => {
      seen.push(isTracking());
      return box.get() * 2;
    });
    const stops = [
      autorun(() => seen.push(isTracking())),
      reaction(
        () => {
          seen.push(isTracking());
          return doubled.get();
        },
        () => undefined,
      ),
    ];
    runInAction(() => box.set(1));
    for (const stop of stops) stop();
    expect(seen).toEqual([true, true, true, true, true]);
  });

  it('is tracked in a computed read in an action, which MobX computes as a derivation too', () => {
    let inside: boolean | null = null;
    const value = computed(() => (inside = isTracking()));
    runInAction(() => value.get());
    expect(inside).toBe(true);
  });

  it('is not tracked in an action, in untracked(), or in plain code', () => {
    const seen: boolean[] = [];
    seen.push(isTracking());
    action(() => seen.push(isTracking()))();
    const stop = autorun(() => untracked(() => seen.push(isTracking())));
    stop();
    expect(seen).toEqual([false, false, false]);
  });
});
