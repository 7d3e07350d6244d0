import type { HouseDelta, HouseLive } from '../../src/contract/live';
import { canSeeHouse, type Scope } from '../auth/scope';
import { PackedStatuses, type StatusOnlyView } from './statusOnly';

/** What the hub keeps of one socket's houses: what it asked to hear, and what it has yet to. */
export class SocketHouses {
  /** Set while the socket hears only houses' status (`live:detail`); null: every field. */
  statusOnly: StatusOnlyView | null = null;
  /**
   * Houses that changed while the socket's link was still busy with earlier packets. They go
   * out as their latest state once it is free: a slow link gets each house once, late, instead
   * of every change queued behind the others in the server's memory (at 10,000 houses a second
   * a console that could not keep up lost its socket to a ping stuck behind them).
   */
  lagging = new Set<number>();
}

/** One flush of the hub: the changed fields of each house, and every house's state as sent. */
export interface Flush {
  deltas: readonly HouseDelta[];
  lastSent: ReadonlyMap<number, HouseLive>;
}

/** What one socket gets of a flush: deltas (`house:updated`), packed statuses (`house:status`). */
export interface SocketShare {
  deltas: HouseDelta[];
  /** Null for a socket that hears every field. */
  packed: PackedStatuses | null;
}

/** The latest state sent of each of these houses that the scope holds (what a socket is owed). */
export function latestStates(
  houseIds: Iterable<number>,
  scope: Scope,
  lastSent: ReadonlyMap<number, HouseLive>,
): HouseLive[] {
  const states: HouseLive[] = [];
  for (const houseId of houseIds) {
    const state = lastSent.get(houseId);
    if (state && canSeeHouse(scope, houseId)) states.push(state);
  }
  return states;
}

/**
 * What one socket gets of a flush: nothing while its link is `busy` (the houses wait as
 * lagging); else first the latest state of the houses it lagged on, then the deltas of the
 * others, each as its `statusOnly` view allows, only for houses in its scope.
 */
export function shareFor(
  houses: SocketHouses,
  scope: Scope,
  busy: boolean,
  flush: Flush,
): SocketShare {
  const { deltas, lastSent } = flush;
  const view = houses.statusOnly;
  const share: SocketShare = { deltas: [], packed: view ? new PackedStatuses() : null };
  if (busy) {
    for (const delta of deltas)
      if (canSeeHouse(scope, delta.houseId)) houses.lagging.add(delta.houseId);
    return share;
  }
  const { packed } = share;
  let caughtUp: ReadonlySet<number> | null = null;
  if (houses.lagging.size > 0) {
    caughtUp = houses.lagging;
    houses.lagging = new Set();
    for (const state of latestStates(caughtUp, scope, lastSent)) {
      const sent = view ? view.take(state, packed!) : state;
      if (sent) share.deltas.push(sent);
    }
  }
  if (!view && !caughtUp && scope.all) {
    share.deltas = deltas.slice();
    return share;
  }
  for (const delta of deltas) {
    // A house caught up above went out whole, this flush's change included.
    if (!canSeeHouse(scope, delta.houseId) || caughtUp?.has(delta.houseId)) continue;
    const sent = view ? view.take(delta, packed!) : delta;
    if (sent) share.deltas.push(sent);
  }
  return share;
}
