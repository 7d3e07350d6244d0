import { type WallFarm } from '../../contract/wall';
import { IdIndex } from './idIndex';
import { IdMarks } from './idMarks';
import { type LiveTally } from './liveTally';
import { RegionTally } from './regionTally';
import { refreshView, type FarmView } from './wallModel';

/** What a consumer of the views is told changed since the change it last saw. */
export interface ViewChanges {
  /** Pass it to the next `changedSince`. */
  generation: number;
  /** The indices of the views that changed, or null: any may have (draw them all again). */
  changed: Pick<IdMarks, 'forEach'> | null;
}

/**
 * The wall's farm views, one per farm in the order of the farms, kept up to date in place from
 * the farms that changed, with their areas' tally, and which of them the last update changed.
 * A storm changes some 4,700 of 10,000 farms each second; a consumer that walked all 10,000
 * views to find them (the farm points) read thousands of objects the update never touched,
 * each a cache miss on a machine whose other core rasterizes the map (bench/wall.ts).
 */
export class FarmViewList {
  list: FarmView[] = [];
  /** The farms of each area by state, following the views. */
  readonly regions = new RegionTally();
  private readonly indexOfFarm = new IdIndex();
  /** The views the last update changed (valid while `changedAt` is the generation). */
  private readonly changed = new IdMarks();
  /** Bumped by every change of the views, a rebuild or an update. */
  private generation = 0;
  private changedAt = -1;

  /** Every farm's view anew (new farms, a new map, a new baseline). */
  rebuild(farms: readonly WallFarm[], make: (farm: WallFarm) => FarmView): void {
    this.indexOfFarm.clear();
    this.list = farms.map((farm, i) => {
      this.indexOfFarm.set(farm.farmId, i);
      return make(farm);
    });
    this.regions.reset(this.list);
    this.generation += 1;
  }

  /**
   * The views of the farms that changed, updated in place; true when one looks different.
   * `farms` are the farms the views were built from, in the same order.
   */
  update(
    farms: readonly WallFarm[],
    farmIds: Pick<IdMarks, 'forEach'>,
    tally: LiveTally,
    raisedSince: ReadonlySet<number>,
  ): boolean {
    const { list: views, indexOfFarm, regions, changed } = this;
    changed.clear();
    this.changedAt = -1;
    farmIds.forEach((farmId) => {
      const i = indexOfFarm.get(farmId);
      if (i < 0) return;
      const farm = farms[i];
      const view = views[i];
      if (!farm || !view) return;
      const before = view.worstState;
      if (!refreshView(view, farm, tally.farm(farmId), raisedSince.has(farmId))) return;
      changed.add(i);
      regions.move(view.region, before, view.worstState);
    });
    if (changed.isEmpty()) return false;
    this.generation += 1;
    this.changedAt = this.generation;
    return true;
  }

  /**
   * What changed since the change a consumer last saw (`seen`, from the answer before; -1 at
   * first): the views of the one update after it, or null when that is not all (a rebuild, or
   * more than one change since).
   */
  changedSince(seen: number): ViewChanges {
    const onlyTheLast = seen + 1 === this.generation && this.changedAt === this.generation;
    return { generation: this.generation, changed: onlyTheLast ? this.changed : null };
  }
}
