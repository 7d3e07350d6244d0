import type { HouseDelta } from '../../src/contract/live';

/**
 * A socket that hears only houses' status (`live:detail` `status`, the wall): which houses it
 * follows in full, and which it is behind on (a field other than the status changed and was not
 * sent to it), so that going back to every field can bring exactly those houses up to date.
 */
export class StatusOnlyView {
  readonly follow = new Set<number>();
  readonly behind = new Set<number>();

  /**
   * What this socket gets of one delta: all of it for a followed house, else its status part
   * (null when none changed). A delta that lost fields leaves the socket behind on that house.
   */
  take(delta: HouseDelta, status: HouseDelta | null): HouseDelta | null {
    if (this.follow.has(delta.houseId)) return delta;
    if (status !== delta) this.behind.add(delta.houseId);
    return status;
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

/**
 * The part of a delta that decides a house's state: the delta itself when it has nothing else
 * (no copy), null when it has none of it.
 */
export function statusOf(delta: HouseDelta): HouseDelta | null {
  const { online, alarm } = delta;
  let others = 0;
  for (const key in delta) if (key !== 'houseId' && key !== 'online' && key !== 'alarm') others++;
  if (others === 0) return online === undefined && alarm === undefined ? null : delta;
  if (online === undefined && alarm === undefined) return null;
  const status: HouseDelta = { houseId: delta.houseId };
  if (online !== undefined) status.online = online;
  if (alarm !== undefined) status.alarm = alarm;
  return status;
}
