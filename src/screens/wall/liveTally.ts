import {
  STATUS_STRIDE,
  STATUS_UNCHANGED,
  type HouseLive,
  type HouseStatusBatch,
} from '../../contract/live';
import { type TakenChanges, type TakenLives } from '../../stores/houseChanges';
import { IdIndex } from './idIndex';
import { type MarksIds } from './idMarks';
import { type AlarmChanges } from './alarmChanges';
import { type FarmTally, type WallCounters, type WallHouseInput } from './wallModel';

/** Birds in a house, as counted (unknown counts none). */
const head = (house: WallHouseInput): number => house.headCount ?? 0;

/** The live part the tally reads of a house. */
type TalliedLive = Pick<HouseLive, 'online' | 'alarm'>;

/**
 * The wall's live totals, per farm and overall, kept up to date from the houses that changed:
 * at 10,000 houses a second's update then costs its changes, not a walk of every house. Also
 * remembers each house's open alarm count, to name raises and clears for the ticker.
 *
 * What it remembers of each house sits in typed arrays at the house's slot, and a change that
 * brings the house's live part (`TakenLives.lives`) is counted without finding the house:
 * with one object per house and the house looked up in the store, a storm of 4,700 changes
 * took 6–7 ms; this way about 2 (bench/wall.ts has the figures in the browser). Packed statuses
 * (`TakenStatuses`, the wall's usual input) are counted from their array, with no object per
 * house at all. Houses and farms are found by id in IdIndex arrays, and a house's slot holds its
 * farm's tally's place: a status change finds its farm without a lookup.
 */
export class LiveTally {
  private readonly slotOf = new IdIndex();
  private readonly freeSlots: number[] = [];
  private size = 0;
  private farmOf = new Int32Array(256);
  /** The place of each slot's farm in `tallies`. */
  private tallyAt = new Int32Array(256);
  private online = new Uint8Array(256);
  private alarms = new Int32Array(256);
  private heads = new Float64Array(256);
  /** Each farm's place in `tallies`. */
  private readonly farms = new IdIndex();
  private tallies: FarmTally[] = [];
  private readonly freeTallies: number[] = [];
  private onlineHouses = 0;
  private alarmHouses = 0;
  private alive = 0;
  /** Open alarms of every house: a change means today's causes changed. */
  alarmTotal = 0;

  /** Forgets every house: the next houses seen are a new baseline (no raise, no clear). */
  clear(): void {
    this.slotOf.clear();
    this.freeSlots.length = 0;
    this.size = 0;
    this.farms.clear();
    this.tallies = [];
    this.freeTallies.length = 0;
    this.onlineHouses = 0;
    this.alarmHouses = 0;
    this.alive = 0;
    this.alarmTotal = 0;
  }

  /** The live totals of a farm, or undefined when none of its houses is known. */
  farm(farmId: number): FarmTally | undefined {
    const at = this.farms.get(farmId);
    return at < 0 ? undefined : this.tallies[at];
  }

  /**
   * Takes in what changed, in order (see HouseChanges.take; `find` answers undefined for a house
   * that left). Farms whose tally changed are added to `changedFarms`, and the alarm raises and
   * clears (a house's open alarm count went up or down) to `changes`: nothing the first time
   * (the baseline), and a house first seen later with open alarms is a raise; a house that left
   * is forgotten silently.
   */
  apply(
    taken: readonly TakenChanges[],
    find: (houseId: number) => WallHouseInput | undefined,
    changedFarms: MarksIds,
    changes: AlarmChanges,
  ): void {
    for (const part of taken)
      if ('statuses' in part) this.applyStatuses(part.statuses, find, changedFarms, changes);
      else this.applyLives(part, find, changedFarms, changes);
  }

  private applyLives(
    taken: TakenLives,
    find: (houseId: number) => WallHouseInput | undefined,
    changedFarms: MarksIds,
    changes: AlarmChanges,
  ): void {
    const baseline = this.slotOf.size === 0;
    const { ids, lives } = taken;
    for (let i = 0; i < ids.length; i += 1) {
      const id = ids[i]!;
      const slot = this.slotOf.get(id);
      let live: TalliedLive | null | undefined = lives[i];
      if (slot < 0) {
        this.countNew(id, baseline, find, changedFarms, changes);
        continue;
      }
      if (!live) {
        // Added, removed or re-read: a live change still, when its farm and size are as counted.
        const house = find(id);
        if (house && this.farmOf[slot] === house.farmId && this.heads[slot] === head(house))
          live = house.live;
        else {
          const was = this.alarms[slot]!;
          this.uncount(slot, changedFarms);
          if (house) {
            this.count(slot, house, changedFarms);
            this.noteAlarm(slot, id, was, house.live.alarm.count, house.live.alarm.top, changes);
          } else {
            this.slotOf.delete(id);
            this.freeSlots.push(slot);
          }
          continue;
        }
      }
      const was = this.alarms[slot]!;
      if (this.changeStatus(slot, live.online ? 1 : 0, live.alarm.count, changedFarms))
        this.noteAlarm(slot, id, was, live.alarm.count, live.alarm.top, changes);
    }
  }

  /**
   * Packed statuses: each house's online and alarm count straight from the batch, without an
   * object per house. A house not counted yet is counted from the store first (its live part
   * is as old as its last full state), then takes the batch's status on top.
   */
  private applyStatuses(
    batch: HouseStatusBatch,
    find: (houseId: number) => WallHouseInput | undefined,
    changedFarms: MarksIds,
    changes: AlarmChanges,
  ): void {
    const baseline = this.slotOf.size === 0;
    const { houses, tops } = batch;
    let top = 0;
    for (let i = 0; i + STATUS_STRIDE <= houses.length; i += STATUS_STRIDE) {
      const id = houses[i]!;
      const online = houses[i + 1]!;
      const alarms = houses[i + 2]!;
      // Taken in order whether or not the house is known, so the next house's stays its own.
      const alarmTop = alarms === STATUS_UNCHANGED ? null : (tops[top++] ?? null);
      // Unknown to the store too: it waits for a snapshot, as a delta would.
      const known = this.slotOf.get(id);
      const slot = known >= 0 ? known : this.countNew(id, baseline, find, changedFarms, changes);
      if (slot < 0) continue;
      const was = this.alarms[slot]!;
      if (
        this.changeStatus(
          slot,
          online === STATUS_UNCHANGED ? this.online[slot]! : online,
          alarms === STATUS_UNCHANGED ? was : alarms,
          changedFarms,
        ) &&
        alarms !== STATUS_UNCHANGED
      )
        this.noteAlarm(slot, id, was, alarms, alarmTop, changes);
    }
  }

  /**
   * Counts a house seen for the first time, from the store; answers its slot, or -1 when the
   * store does not know it. A house that joins after the baseline with open alarms is a raise.
   */
  private countNew(
    id: number,
    baseline: boolean,
    find: (houseId: number) => WallHouseInput | undefined,
    changedFarms: MarksIds,
    changes: AlarmChanges,
  ): number {
    const house = find(id);
    if (!house) return -1;
    const slot = this.newSlot(id);
    this.count(slot, house, changedFarms);
    const was = baseline ? house.live.alarm.count : 0;
    this.noteAlarm(slot, id, was, house.live.alarm.count, house.live.alarm.top, changes);
    return slot;
  }

  counters(): WallCounters {
    const total = this.slotOf.size;
    return {
      total,
      online: this.onlineHouses,
      offline: total - this.onlineHouses,
      alarm: this.alarmHouses,
      alarmRate: total === 0 ? 0 : Math.round((this.alarmHouses / total) * 1000) / 10,
      alive10k: Math.round(this.alive / 100) / 100,
    };
  }

  /**
   * A raise or a clear when the house's open alarm count moved. The house is not looked up: a
   * storm raises and clears thousands a second and the ticker names only its last few
   * (WallStore looks their names up).
   */
  private noteAlarm(
    slot: number,
    houseId: number,
    was: number,
    alarms: number,
    top: HouseLive['alarm']['top'],
    changes: AlarmChanges,
  ): void {
    if (was === alarms) return;
    changes.add(
      alarms > was ? 'raised' : 'cleared',
      houseId,
      this.farmOf[slot]!,
      top?.cause ?? null,
      top?.severity ?? null,
    );
  }

  /** Counts a house's new status in place of its old; false when nothing counted changed. */
  private changeStatus(
    slot: number,
    online: number,
    alarms: number,
    changedFarms: MarksIds,
  ): boolean {
    const wasOnline = this.online[slot]!;
    const wasAlarms = this.alarms[slot]!;
    if (online === wasOnline && alarms === wasAlarms) return false;
    const farmId = this.farmOf[slot]!;
    const farm = this.tallies[this.tallyAt[slot]!]!;
    const alarmed = (alarms > 0 ? 1 : 0) - (wasAlarms > 0 ? 1 : 0);
    farm.offline += wasOnline - online;
    farm.alarmHouses += alarmed;
    farm.alarms += alarms - wasAlarms;
    this.onlineHouses += online - wasOnline;
    this.alarmHouses += alarmed;
    this.alarmTotal += alarms - wasAlarms;
    this.online[slot] = online;
    this.alarms[slot] = alarms;
    changedFarms.add(farmId);
    return true;
  }

  /** Adds a whole house at its slot. */
  private count(slot: number, house: WallHouseInput, changedFarms: MarksIds): void {
    const { farmId } = house;
    const online = house.live.online ? 1 : 0;
    const alarms = house.live.alarm.count;
    const heads = head(house);
    this.farmOf[slot] = farmId;
    this.online[slot] = online;
    this.alarms[slot] = alarms;
    this.heads[slot] = heads;
    let at = this.farms.get(farmId);
    if (at < 0) {
      at = this.freeTallies.pop() ?? this.tallies.length;
      this.tallies[at] = { houses: 0, offline: 0, alarmHouses: 0, alarms: 0 };
      this.farms.set(farmId, at);
    }
    this.tallyAt[slot] = at;
    const farm = this.tallies[at]!;
    const alarmed = alarms > 0 ? 1 : 0;
    farm.houses += 1;
    farm.offline += 1 - online;
    farm.alarmHouses += alarmed;
    farm.alarms += alarms;
    this.onlineHouses += online;
    this.alarmHouses += alarmed;
    this.alive += heads;
    this.alarmTotal += alarms;
    changedFarms.add(farmId);
  }

  /** Takes away what the house at `slot` added. */
  private uncount(slot: number, changedFarms: MarksIds): void {
    const farmId = this.farmOf[slot]!;
    const online = this.online[slot]!;
    const alarms = this.alarms[slot]!;
    const at = this.tallyAt[slot]!;
    const farm = this.tallies[at]!;
    const alarmed = alarms > 0 ? 1 : 0;
    farm.houses -= 1;
    farm.offline -= 1 - online;
    farm.alarmHouses -= alarmed;
    farm.alarms -= alarms;
    // A farm without known houses shows what the server said of it (farmViews does the same).
    if (farm.houses === 0) {
      this.farms.delete(farmId);
      this.freeTallies.push(at);
    }
    this.onlineHouses -= online;
    this.alarmHouses -= alarmed;
    this.alive -= this.heads[slot]!;
    this.alarmTotal -= alarms;
    changedFarms.add(farmId);
  }

  /** A slot for a house seen for the first time: a freed one, or the next (arrays grow). */
  private newSlot(houseId: number): number {
    let slot = this.freeSlots.pop();
    if (slot === undefined) {
      slot = this.size;
      this.size += 1;
      if (slot >= this.online.length) this.grow();
    }
    this.slotOf.set(houseId, slot);
    return slot;
  }

  private grow(): void {
    const length = 2 * this.online.length;
    const grown = <A extends Float64Array | Int32Array | Uint8Array>(a: A, empty: A): A => {
      empty.set(a);
      return empty;
    };
    this.farmOf = grown(this.farmOf, new Int32Array(length));
    this.tallyAt = grown(this.tallyAt, new Int32Array(length));
    this.online = grown(this.online, new Uint8Array(length));
    this.alarms = grown(this.alarms, new Int32Array(length));
    this.heads = grown(this.heads, new Float64Array(length));
  }
}
