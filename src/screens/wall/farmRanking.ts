import {
  action,
  compareStructural,
  computed,
  computedStruct,
  makeObservable,
  observableRef,
} from 'mobx';
import { type ApiClient } from '../../api/client';
import {
  compareFarms,
  wallRankingSchema,
  type RankedFarm,
  type WallFarmDistance,
  type WallRanking,
} from '../../contract/wallRanking';
import { type FarmView } from './wallModel';
import { polled } from './wallReads';

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
      distances: computed,
      load: action,
    });
  }

  /**
   * The worst RANKED_SHOWN farms, worst first. Only farms with an open alarm or off target are
   * candidates, and each is compared against the few kept: no sort of 10,000 farms on each
   * second's update.
   */
  get top(): RankedFarm[] {
    const distances = this.distances;
    const kept: RankedFarm[] = [];
    // Each farm is first compared as this one reused object: most are not kept, and 10,000 new
    // objects a second would be garbage for nothing.
    const probe: RankedFarm = {
      farmId: 0,
      name: '',
      alarmCount: 0,
      distance: null,
      offline: false,
    };
    for (const view of this.views()) {
      const distance = distances.get(view.farmId) ?? null;
      if (view.alarmCount === 0 && distance === null) continue;
      probe.name = view.name;
      probe.alarmCount = view.alarmCount;
      probe.distance = distance;
      if (kept.length === RANKED_SHOWN && !worse(probe, kept[kept.length - 1]!)) continue;
      const farm = { ...probe, farmId: view.farmId };
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

  /** The server's distances by farm, made again only when a new ranking is read. */
  get distances(): ReadonlyMap<number, WallFarmDistance> {
    return new Map((this.ranking?.farms ?? []).map((d) => [d.farmId, d]));
  }

  async load(): Promise<void> {
    try {
      const ranking = await this.api.get('/wall/ranking', {
        schema: wallRankingSchema,
        ...polled,
      });
      // The same distances (the usual answer every 30 s; only its time moved): the top eight
      // stay as they are, with no walk of every farm.
      if (!compareStructural(ranking.farms, this.ranking?.farms))
        action(() => (this.ranking = ranking))();
    } catch {
      // An outage: the alarms keep ranking live; the distances wait for the next refresh.
    }
  }
}
