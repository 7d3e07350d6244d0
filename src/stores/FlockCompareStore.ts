import { makeAutoObservable, runInAction } from 'mobx';
import { type ApiClient } from '../api/client';
import {
  flockCompareSchema,
  type CompareSeries,
  type CompareWith,
  type FlockCompare,
} from '../contract/productionCompare';
import { LatestAsk } from './latestAsk';

/**
 * The flocks page's comparison: the chosen flock by day of age against the house's previous
 * flocks or the farm's other houses, one KPI at a time. Made by the page with its flocks store.
 */
export class FlockCompareStore {
  flockId: number | null = null;
  compareWith: CompareWith = 'house';
  series: CompareSeries = 'bodyWeightG';
  answer: FlockCompare | null = null;
  loading = false;
  /** Answers may cross when the user clicks on: only the newest call's answer is kept. */
  private readonly latest = new LatestAsk();

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api' | 'latest'>(this, { api: false, latest: false });
  }

  async load(flockId: number | null, compareWith = this.compareWith): Promise<void> {
    this.flockId = flockId;
    this.compareWith = compareWith;
    if (flockId === null) {
      this.answer = null;
      return;
    }
    const call = this.latest.ask();
    this.loading = true;
    try {
      const answer = await this.api.get(
        `/production/compare?flockId=${flockId}&with=${compareWith}`,
        { schema: flockCompareSchema },
      );
      runInAction(() => {
        if (this.latest.isLatest(call)) this.answer = answer;
      });
    } finally {
      runInAction(() => {
        if (this.latest.isLatest(call)) this.loading = false;
      });
    }
  }

  chooseSeries(series: CompareSeries): void {
    this.series = series;
  }
}
