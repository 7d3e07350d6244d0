import { action, computedStruct, makeObservable, observableRef } from 'mobx';
import { type ApiClient } from '../../api/client';
import {
  compareFarms,
  wallRankingSchema,
  type RankedFarm,
  type WallFarmDistance,
  type WallRanking,
} from '../../contract/wallRanking';
import { type FarmView } from './wallModel';

/** How many farms the panel can name; the tour steps through the same ones. */
export const RANKED_SHOWN = 8;

/** One farm worse than another, as `compareFarms` orders them. */
const worse = (a: RankedFarm, b: RankedFarm) => compareFarms(a, b) < 0;

/**
 * "Who needs someone": farms by their open alarms, which the live stream keeps (a raise ranks
 * its farm at once), then by how far their houses are from target, which the server works out
 * from the latest readings and the alarm limits and the wall reads on its 30 s refresh.
 */
export class FarmRanking {
  ranking: WallRanking | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly views: () => readonly FarmView[],
    /** Whether every house of a farm is offline (the live tally knows). */
    private readonly allOffline: (farmId: number) => boolean,
  ) {
    makeObservable(this, {
      ranking: observableRef,
      top: computedStruct,
      load: action,
    });
  }

  /**
   * The worst RANKED_SHOWN farms, worst first. Only farms with an open alarm or off target are
   * candidates, and each is compared against the few kept: no sort of 10,000 farms on each
   * second's update.
   */
  get top(): RankedFarm[] {
    const distances = new Map<number, WallFarmDistance>();
    for (const d of this.ranking?.farms ?? []) distances.set(d.farmId, d);
    const kept: RankedFarm[] = [];
    for (const view of this.views()) {
      const distance = distances.get(view.farmId) ?? null;
      if (view.alarmCount === 0 && distance === null) continue;
      const farm = {
        farmId: view.farmId,
        name: view.name,
        alarmCount: view.alarmCount,
        distance,
        offline: false,
      };
      if (kept.length === RANKED_SHOWN && !worse(farm, kept[kept.length - 1]!)) continue;
      let at = kept.length;
      while (at > 0 && worse(farm, kept[at - 1]!)) at -= 1;
      kept.splice(at, 0, farm);
      if (kept.length > RANKED_SHOWN) kept.pop();
    }
    // Asked of the few kept only: a farm in alarm whose houses all went dark says so.
    for (const farm of kept)
      farm.offline = distances.has(farm.farmId) ? false : this.allOffline(farm.farmId);
    return kept;
  }

  async load(): Promise<void> {
    try {
      const ranking = await this.api.get('/wall/ranking', {
        schema: wallRankingSchema,
        quiet: () => true,
        background: true,
      });
      action(() => (this.ranking = ranking))();
    } catch {
      // An outage: the alarms keep ranking live; the distances wait for the next refresh.
    }
  }
}
