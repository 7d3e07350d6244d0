import { STATUS_UNCHANGED, type HouseDelta, type HouseStatusWire } from '../../src/contract/live';
import { packStatusHouses } from '../../src/contract/statusPacking';

/**
 * A socket that hears only houses' status (`live:detail` `status`, the wall): which houses it
 * follows in full, and which it is behind on, so that going back to every field can bring
 * exactly those houses up to date. It is behind on every house it heard packed: the console
 * counts packed statuses but does not write them into its houses.
 */
export class StatusOnlyView {
  readonly follow = new Set<number>();
  readonly behind = new Set<number>();

  /**
   * What this socket gets of one delta: all of it for a followed house (answered), else its
   * status part, added to `packed` (null answered).
   */
  take(delta: HouseDelta, packed: PackedStatuses): HouseDelta | null {
    if (this.follow.has(delta.houseId)) return delta;
    this.behind.add(delta.houseId);
    packed.add(delta);
    return null;
  }

  /**
   * Follows these houses from now on; answers those of them it was behind on (to be sent in
   * full now), which it is no longer behind on.
   */
  refollow(houseIds: Iterable<number>): number[] {
    this.follow.clear();
    const catchUp: number[] = [];
    for (const houseId of houseIds) {
      this.follow.add(houseId);
      if (this.behind.delete(houseId)) catchUp.push(houseId);
    }
    return catchUp;
  }
}

/** The packed statuses one socket gets of a flush (`house:status`). */
export class PackedStatuses {
  readonly houses: number[] = [];
  readonly tops: HouseStatusWire['tops'] = [];

  /** Adds the part of a delta that decides its house's state, if it has any. */
  add(delta: HouseDelta): void {
    const { online, alarm } = delta;
    if (online === undefined && alarm === undefined) return;
    this.houses.push(
      delta.houseId,
      online === undefined ? STATUS_UNCHANGED : online ? 1 : 0,
      alarm === undefined ? STATUS_UNCHANGED : alarm.count,
    );
    if (alarm !== undefined) this.tops.push(alarm.top);
  }

  /** The batch as it goes out: its houses a binary attachment (see HouseStatusWire). */
  batch(at: number): HouseStatusWire {
    return { houses: packStatusHouses(this.houses), tops: this.tops, at };
  }
}
