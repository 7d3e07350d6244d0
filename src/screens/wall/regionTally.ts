import { type WallState } from '../../contract/wall';
import { type FarmView } from './wallModel';

/**
 * How many farms of each area are in each state, kept as farms change: an area's state (its
 * worst farm's) is then read from three counts, where working it out from every farm's view
 * walked all 10,000 farms at each update of an alarm storm (bench/wall.ts).
 */
export class RegionTally {
  /** Per area, in the order the areas first appear among the farms: alarm, offline, normal. */
  private counts = new Map<string, [number, number, number]>();

  /** Counts every farm again (new farms, a new map). */
  reset(views: readonly FarmView[]): void {
    this.counts = new Map();
    for (const view of views) this.add(view.region, view.worstState, 1);
  }

  /** A farm went from one state to another. */
  move(region: string | null, from: WallState, to: WallState): void {
    if (from === to) return;
    this.add(region, from, -1);
    this.add(region, to, 1);
  }

  /** Each area with a farm, and its worst farm's state. */
  states(): Map<string, WallState> {
    const states = new Map<string, WallState>();
    for (const [region, [alarm, offline]] of this.counts)
      states.set(region, alarm > 0 ? 'alarm' : offline > 0 ? 'offline' : 'normal');
    return states;
  }

  private add(region: string | null, state: WallState, by: number): void {
    if (!region) return;
    let counts = this.counts.get(region);
    if (!counts) this.counts.set(region, (counts = [0, 0, 0]));
    counts[state === 'alarm' ? 0 : state === 'offline' ? 1 : 2] += by;
  }
}
