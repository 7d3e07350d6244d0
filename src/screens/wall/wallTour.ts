import { action, makeObservable, observable, observableRef } from 'mobx';
import type { WallPanelId, WallTour, WallTourStop } from '../../contract/wallLayout';

/** How many of the worst farms a 'worstFarms' stop expands to, each a stop of its own. */
export const TOUR_WORST_FARMS = 5;
/** A touch, click or key holds the tour this long, so whoever is at the wall can look. */
export const TOUR_PAUSE_MS = 60_000;

/** Where the tour is: the whole map, one farm drilled into, or a panel in the spotlight. */
export type TourPlace =
  { kind: 'overview' } | { kind: 'farm'; farmId: number } | { kind: 'panel'; panel: WallPanelId };

/** A place as words ("overview", "farm 12", "night"), for the wall's `data-tour-stop`. */
export function placeName(place: TourPlace | null): string | undefined {
  if (place === null) return undefined;
  return place.kind === 'farm'
    ? `farm ${place.farmId}`
    : place.kind === 'panel'
      ? place.panel
      : 'overview';
}

/** What the tour moves: the wall's map and drill-down, and its ranking of farms. */
export interface TourWall {
  reset(): void;
  selectFarm(farmId: number): void;
  /** The farms with an open alarm, worst first. */
  worstFarmIds(): number[];
}

/** The stops of one round: 'worstFarms' becomes the worst farms of that moment, one by one. */
export function placesOf(stops: readonly WallTourStop[], worst: readonly number[]): TourPlace[] {
  return stops.flatMap((stop): TourPlace[] => {
    if (stop === 'overview') return [{ kind: 'overview' }];
    if (stop === 'worstFarms')
      return worst.slice(0, TOUR_WORST_FARMS).map((farmId) => ({ kind: 'farm', farmId }));
    return [{ kind: 'panel', panel: stop }];
  });
}

/**
 * The wall's tour: every `seconds` the next stop. 'worstFarms' is expanded when the tour gets
 * there, so the farms are those of that moment (at the first round after a load the map may
 * not have its farms yet), and with no farm in alarm it is passed over. A touch pauses the tour
 * for TOUR_PAUSE_MS from the last touch; then it goes on from the stop after the one it was at.
 */
export class WallTourRunner {
  place: TourPlace | null = null;
  paused = false;
  /** The places left of the stop the tour is at (more than one for 'worstFarms'). */
  private queue: TourPlace[] = [];
  private stopIndex = -1;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly wall: TourWall,
    private readonly tour: WallTour,
  ) {
    makeObservable<WallTourRunner, 'step'>(this, {
      place: observableRef,
      paused: observable,
      step: action,
      pause: action,
      resume: action,
    });
  }

  start(): void {
    this.step();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Somebody is at the wall: hold still (and leave the map as they put it). */
  pause(): void {
    this.paused = true;
    if (this.place?.kind === 'panel') this.place = null;
    this.schedule(TOUR_PAUSE_MS, () => this.resume());
  }

  resume(): void {
    this.paused = false;
    this.step();
  }

  /** The next place: the rest of the current stop's, else the next stop's that has any. */
  private next(): TourPlace {
    const { stops } = this.tour;
    for (let tries = 0; this.queue.length === 0 && tries < stops.length; tries += 1) {
      this.stopIndex = (this.stopIndex + 1) % stops.length;
      this.queue = placesOf([stops[this.stopIndex]!], this.wall.worstFarmIds());
    }
    // Only 'worstFarms' and no farm in alarm: the whole map until there is one.
    return this.queue.shift() ?? { kind: 'overview' };
  }

  private step(): void {
    const place = this.next();
    this.place = place;
    if (place.kind === 'farm') this.wall.selectFarm(place.farmId);
    else this.wall.reset();
    this.schedule(this.tour.seconds * 1000, () => this.step());
  }

  private schedule(ms: number, then: () => void): void {
    this.stop();
    this.timer = setTimeout(then, ms);
  }
}
