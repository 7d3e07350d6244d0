import {
  type AlarmChange,
  type FarmTally,
  type WallCounters,
  type WallHouseInput,
} from './wallModel';

/** What one house adds to its farm's and the wall's totals. */
interface HouseSeen {
  farmId: number;
  online: boolean;
  alarms: number;
  headCount: number;
}

/**
 * The wall's live totals, per farm and overall, kept up to date from the houses that changed:
 * at 10,000 houses a second's update then costs its changes, not a walk of every house. Also
 * remembers each house's open alarm count, to name raises and clears for the ticker.
 */
export class LiveTally {
  private readonly houses = new Map<number, HouseSeen>();
  private readonly farms = new Map<number, FarmTally>();
  private online = 0;
  private alarmHouses = 0;
  private alive = 0;
  /** Open alarms of every house: a change means today's causes changed. */
  alarmTotal = 0;

  /** Forgets every house: the next houses seen are a new baseline (no raise, no clear). */
  clear(): void {
    this.houses.clear();
    this.farms.clear();
    this.online = 0;
    this.alarmHouses = 0;
    this.alive = 0;
    this.alarmTotal = 0;
  }

  /** The live totals of a farm, or undefined when none of its houses is known. */
  farm(farmId: number): FarmTally | undefined {
    return this.farms.get(farmId);
  }

  /**
   * Takes in the houses that changed (`find` answers undefined for one that left). Farms whose
   * tally changed are added to `changedFarms`. Answers the alarm raises and clears (a house's
   * open alarm count went up or down): nothing the first time (the baseline), and a house first
   * seen later with open alarms is a raise; a house that left is forgotten silently.
   */
  apply(
    ids: Iterable<number>,
    find: (houseId: number) => WallHouseInput | undefined,
    changedFarms: Set<number>,
  ): AlarmChange[] {
    const baseline = this.houses.size === 0;
    const changes: AlarmChange[] = [];
    for (const id of ids) {
      const before = this.houses.get(id);
      const house = find(id);
      if (!house) {
        if (before) this.count(before, -1, changedFarms);
        this.houses.delete(id);
        continue;
      }
      // Each observable read once, and nothing allocated for a house that counts as it did.
      const live = house.live;
      const farmId = house.farmId;
      const online = live.online;
      const alarms = live.alarm.count;
      const headCount = house.headCount ?? 0;
      if (
        before &&
        before.farmId === farmId &&
        before.online === online &&
        before.alarms === alarms &&
        before.headCount === headCount
      )
        continue;
      const was = before ? before.alarms : baseline ? alarms : 0;
      if (before) {
        this.count(before, -1, changedFarms);
        before.farmId = farmId;
        before.online = online;
        before.alarms = alarms;
        before.headCount = headCount;
        this.count(before, 1, changedFarms);
      } else {
        const seen = { farmId, online, alarms, headCount };
        this.houses.set(id, seen);
        this.count(seen, 1, changedFarms);
      }
      if (was === alarms) continue;
      const top = live.alarm.top;
      changes.push({
        kind: alarms > was ? 'raised' : 'cleared',
        houseId: id,
        houseName: house.houseName,
        farmId,
        cause: top?.cause ?? null,
        severity: top?.severity ?? null,
      });
    }
    return changes;
  }

  counters(): WallCounters {
    const total = this.houses.size;
    return {
      total,
      online: this.online,
      offline: total - this.online,
      alarm: this.alarmHouses,
      alarmRate: total === 0 ? 0 : Math.round((this.alarmHouses / total) * 1000) / 10,
      alive10k: Math.round(this.alive / 100) / 100,
    };
  }

  /** Adds (sign 1) or takes away (sign -1) one house's part. */
  private count(house: HouseSeen, sign: 1 | -1, changedFarms: Set<number>): void {
    let farm = this.farms.get(house.farmId);
    if (!farm) {
      farm = { houses: 0, offline: 0, alarmHouses: 0, alarms: 0 };
      this.farms.set(house.farmId, farm);
    }
    const alarmed = house.alarms > 0 ? sign : 0;
    farm.houses += sign;
    farm.offline += house.online ? 0 : sign;
    farm.alarmHouses += alarmed;
    farm.alarms += sign * house.alarms;
    // A farm without known houses shows what the server said of it (farmViews does the same).
    if (farm.houses === 0) this.farms.delete(house.farmId);
    this.online += house.online ? sign : 0;
    this.alarmHouses += alarmed;
    this.alive += sign * house.headCount;
    this.alarmTotal += sign * house.alarms;
    changedFarms.add(house.farmId);
  }
}
