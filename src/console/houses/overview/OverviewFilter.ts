import { makeAutoObservable } from 'mobx';
import {
  houseNames,
  type House,
  type HouseSort,
  type HousesStore,
} from '../../../stores/HousesStore';
import {
  countStatuses,
  matchesFilter,
  targetDeviation,
  type StatusFilter,
} from '../../../stores/houseStatus';

const STATUS_ORDER = { alarm: 0, offline: 1, empty: 2, normal: 3 } as const;

/**
 * The overview's filter, search, grouping and sort; the page owns one. Every order starts from
 * the store's name order (sorted only when names change), so a live batch costs one pass over
 * the houses, never a sort of 5,000 with a collator: status is four buckets, deviation a sort
 * on numbers with the name order as the tie-break.
 */
export class OverviewFilter {
  filter: StatusFilter = 'all';
  search = '';
  groupByFarm = false;
  sort: HouseSort = 'farm';

  constructor(private readonly houses: HousesStore) {
    makeAutoObservable<OverviewFilter, 'houses'>(this, { houses: false });
  }

  setFilter(filter: StatusFilter): void {
    this.filter = filter;
  }
  setSearch(search: string): void {
    this.search = search;
  }
  setGroupByFarm(on: boolean): void {
    this.groupByFarm = on;
  }
  setSort(sort: HouseSort): void {
    this.sort = sort;
  }

  /** Houses matching the search (house or farm name), before the status filter, by name. */
  get searched(): House[] {
    const needle = this.search.trim().toLowerCase();
    const all = this.houses.byName;
    if (!needle) return all;
    return all.filter(
      (h) =>
        h.houseName.toLowerCase().includes(needle) || h.farmName.toLowerCase().includes(needle),
    );
  }

  /** Each filter's count among the searched houses. */
  get counts(): Record<StatusFilter, number> {
    return countStatuses(this.searched);
  }

  /** The searched houses in house-name order (farm name breaking ties). */
  get byHouseName(): House[] {
    return this.searched
      .map((house, rank) => ({ house, rank, name: house.houseName }))
      .sort((a, b) => houseNames.compare(a.name, b.name) || a.rank - b.rank)
      .map((entry) => entry.house);
  }

  get visible(): House[] {
    const filter = this.filter;
    const base = this.sort === 'name' ? this.byHouseName : this.searched;
    const list = filter === 'all' ? base : base.filter((h) => matchesFilter(h, filter));
    let sorted: House[];
    switch (this.sort) {
      case 'status': {
        const buckets: House[][] = [[], [], [], []];
        for (const house of list) buckets[STATUS_ORDER[house.status]]!.push(house);
        sorted = buckets.flat();
        break;
      }
      case 'deviation':
        sorted = list
          .map((house, rank) => ({ house, rank, dev: targetDeviation(house.live) ?? -1 }))
          .sort((a, b) => b.dev - a.dev || a.rank - b.rank)
          .map((entry) => entry.house);
        break;
      default:
        sorted = list;
    }
    // Grouped: farms in name order, the chosen sort inside each farm (a stable sort).
    if (this.groupByFarm && this.sort !== 'farm') {
      const farmRank = new Map<number, number>();
      for (const house of this.searched)
        if (!farmRank.has(house.farmId)) farmRank.set(house.farmId, farmRank.size);
      sorted = sorted
        .map((house, rank) => ({ house, rank, farm: farmRank.get(house.farmId) ?? 0 }))
        .sort((a, b) => a.farm - b.farm || a.rank - b.rank)
        .map((entry) => entry.house);
    }
    return sorted;
  }
}
