import { action, makeObservable, observable } from 'mobx';
import { IDLE_RESET_MS } from './constants';

/**
 * Where the wall is drilled to: an area of the map, a farm in it, or neither (the whole map).
 * A touch, a click and the tour move it; a minute without a touch brings the whole map back,
 * so a wall left on one farm by a passer-by shows everything again.
 */
export class WallDrill {
  /** The map's area drilled into (a province's code, a country's name), null for the whole map. */
  region: string | null = null;
  /** The farm whose houses the drill-down panel lists, null for none. */
  farmId: number | null = null;
  /** When someone last touched the screen (a tap, a click, a key). */
  lastTouchAt = Date.now();

  /** `regionOfFarm` says in which area a farm lies, as the map draws it. */
  constructor(private readonly regionOfFarm: (farmId: number) => string | null | undefined) {
    makeObservable<WallDrill, 'regionOfFarm'>(this, {
      region: observable,
      farmId: observable,
      lastTouchAt: observable,
      regionOfFarm: false,
      selectRegion: action,
      selectFarm: action,
      reset: action,
      touch: action,
    });
  }

  selectRegion(region: string | null): void {
    this.region = region;
    this.farmId = null;
    this.touch();
  }

  /** A farm, and the area it lies in (an unknown farm keeps the area drilled). */
  selectFarm(farmId: number): void {
    this.region = this.regionOfFarm(farmId) ?? this.region;
    this.farmId = farmId;
    this.touch();
  }

  reset(): void {
    this.region = null;
    this.farmId = null;
  }

  touch(): void {
    this.lastTouchAt = Date.now();
  }

  /** On the clock's tick: back to the whole map once an area was left untouched a minute. */
  resetWhenIdle(now: number): void {
    if (this.region !== null && now - this.lastTouchAt > IDLE_RESET_MS) this.reset();
  }
}
