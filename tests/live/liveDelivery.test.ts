import { describe, expect, it } from 'vitest';
import type { Scope } from '../../server/auth/scope';
import { shareFor, SocketHouses, type Flush } from '../../server/live/delivery';
import { presentLive } from '../../server/live/presenter';
import { StatusOnlyView } from '../../server/live/statusOnly';
import type { HouseDelta, HouseLive, HouseStatusWire } from '../../src/contract/live';
import { houseLiveState } from '../helpers/houseStates';
import { statusBatchOf } from '../../src/contract/statusPacking';

/** A batch as the page reads it off the socket, its houses as plain numbers. */
function unpacked(wire: HouseStatusWire | undefined) {
  const batch = wire && statusBatchOf(wire);
  return batch && { ...batch, houses: [...batch.houses] };
}

const live = (houseId: number, temperature: number, online = true): HouseLive =>
  presentLive(
    houseLiveState(houseId, { online, lastSeenAt: null, lastTs: null, metrics: { temperature } }),
  );

const scopeOf = (houseIds: number[] | 'all'): Scope =>
  ({
    all: houseIds === 'all',
    houseIds: new Set(houseIds === 'all' ? [] : houseIds),
  }) as unknown as Scope;

function flushOf(deltas: HouseDelta[], states: HouseLive[]): Flush {
  return { deltas, lastSent: new Map(states.map((s) => [s.houseId, s])) };
}

describe('what one socket gets of a flush', () => {
  it('holds a busy link’s houses back and then sends each one’s latest state once, before the others', () => {
    const houses = new SocketHouses();
    const scope = scopeOf([1, 2, 3]);
    const first = flushOf(
      [
        { houseId: 1, metrics: { temperature: 20 } },
        { houseId: 4, metrics: { temperature: 20 } },
      ],
      [live(1, 20), live(4, 20)],
    );
    expect(shareFor(houses, scope, true, first)).toEqual({ deltas: [], packed: null });
    // House 4 is not this socket's: it is not owed either.
    expect([...houses.lagging]).toEqual([1]);

    const second = flushOf(
      [
        { houseId: 1, metrics: { temperature: 22 } },
        { houseId: 2, metrics: { temperature: 21 } },
      ],
      [live(1, 22), live(2, 21)],
    );
    expect(shareFor(houses, scope, false, second).deltas).toEqual([
      live(1, 22),
      { houseId: 2, metrics: { temperature: 21 } },
    ]);
    expect(houses.lagging.size).toBe(0);
  });

  it('owes a busy status-only socket only the status of the houses it does not follow, packed', () => {
    const houses = new SocketHouses();
    houses.statusOnly = new StatusOnlyView();
    houses.statusOnly.refollow([2]);
    const scope = scopeOf('all');
    const busy = flushOf(
      [
        { houseId: 1, online: false, metrics: { temperature: 19 } },
        { houseId: 2, metrics: { temperature: 23 } },
      ],
      [live(1, 19, false), live(2, 23)],
    );
    expect(shareFor(houses, scope, true, busy).packed?.houses).toEqual([]);
    const free = flushOf([], [live(1, 19, false), live(2, 23)]);
    const share = shareFor(houses, scope, false, free);
    expect(share.deltas).toEqual([live(2, 23)]);
    // House 1: offline, no open alarm.
    expect(unpacked(share.packed?.batch(7))).toEqual({ houses: [1, 0, 0], tops: [null], at: 7 });
    // The console does not write packed statuses into its houses, and the temperature was left
    // out: going back to every field will bring the house whole.
    expect([...houses.statusOnly.behind]).toEqual([1]);
  });

  it('packs only what changed of a house’s status, and nothing of a house whose status did not change', () => {
    const houses = new SocketHouses();
    houses.statusOnly = new StatusOnlyView();
    const top = {
      cause: 'nh3High',
      severity: 'major',
      subject: 'nh3',
      value: 30,
      limit: 25,
      text: null,
    } as const;
    const share = shareFor(
      houses,
      scopeOf([1, 2, 3, 4]),
      false,
      flushOf(
        [
          { houseId: 1, online: true },
          { houseId: 2, alarm: { count: 2, top } },
          { houseId: 3, metrics: { temperature: 20 } },
          { houseId: 4, online: false, alarm: { count: 0, top: null } },
          { houseId: 5, online: false },
        ],
        [],
      ),
    );
    expect(share.deltas).toEqual([]);
    expect(unpacked(share.packed?.batch(1))).toEqual({
      houses: [1, 1, -1, 2, -1, 2, 4, 0, 0],
      tops: [top, null],
      at: 1,
    });
    // Every house it heard of, packed or not at all; not house 5, which it may not see.
    expect([...houses.statusOnly.behind].sort()).toEqual([1, 2, 3, 4]);
  });

  it('does not send a house it was owed once it may no longer see it', () => {
    const houses = new SocketHouses();
    shareFor(houses, scopeOf([1]), true, flushOf([{ houseId: 1, online: false }], [live(1, 20)]));
    expect(shareFor(houses, scopeOf([]), false, flushOf([], [live(1, 20)])).deltas).toEqual([]);
  });
});
