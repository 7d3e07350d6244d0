import { describe, expect, it } from 'vitest';
import type { Scope } from '../../server/auth/scope';
import { deltasFor, SocketHouses, type Flush } from '../../server/live/delivery';
import { presentLive } from '../../server/live/presenter';
import { StatusOnlyView, statusOf } from '../../server/live/statusOnly';
import type { HouseDelta, HouseLive } from '../../src/contract/live';
import { houseLiveState } from '../helpers/houseStates';

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
  return {
    deltas,
    statuses: () => deltas.map(statusOf),
    lastSent: new Map(states.map((s) => [s.houseId, s])),
  };
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
    expect(deltasFor(houses, scope, true, first)).toEqual([]);
    // House 4 is not this socket's: it is not owed either.
    expect([...houses.lagging]).toEqual([1]);

    const second = flushOf(
      [
        { houseId: 1, metrics: { temperature: 22 } },
        { houseId: 2, metrics: { temperature: 21 } },
      ],
      [live(1, 22), live(2, 21)],
    );
    expect(deltasFor(houses, scope, false, second)).toEqual([
      live(1, 22),
      { houseId: 2, metrics: { temperature: 21 } },
    ]);
    expect(houses.lagging.size).toBe(0);
  });

  it('owes a busy status-only socket only the status of the houses it does not follow', () => {
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
    deltasFor(houses, scope, true, busy);
    const free = flushOf([], [live(1, 19, false), live(2, 23)]);
    expect(deltasFor(houses, scope, false, free)).toEqual([
      { houseId: 1, online: false, alarm: { count: 0, top: null } },
      live(2, 23),
    ]);
    // Its temperature was left out: going back to every field will bring it.
    expect([...houses.statusOnly.behind]).toEqual([1]);
  });

  it('does not send a house it was owed once it may no longer see it', () => {
    const houses = new SocketHouses();
    deltasFor(houses, scopeOf([1]), true, flushOf([{ houseId: 1, online: false }], [live(1, 20)]));
    expect(deltasFor(houses, scopeOf([]), false, flushOf([], [live(1, 20)]))).toEqual([]);
  });
});
