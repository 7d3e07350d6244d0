import { describe, expect, it } from 'vitest';
import { STATUS_UNCHANGED } from '../../src/contract/live';
import { packStatusHouses, statusBatchOf } from '../../src/contract/statusPacking';

const U = STATUS_UNCHANGED;
const houses = [1, 1, U, 70_000, 0, 3, 2_147_483_647, U, 0];

describe('packed statuses on the wire', () => {
  it('reads back every house’s id, online and alarm count, unchanged fields included', () => {
    const bytes = packStatusHouses(houses);
    // Little-endian whatever the platform: the first id's low byte comes first.
    expect([...bytes.slice(0, 4)]).toEqual([1, 0, 0, 0]);
    expect([...statusBatchOf({ houses: bytes.buffer, tops: [], at: 5 })!.houses]).toEqual(houses);
  });

  it('reads bytes that sit at any offset of a larger buffer, as a Node client’s Buffer does', () => {
    const bytes = packStatusHouses(houses);
    const larger = new Uint8Array(bytes.length + 3);
    larger.set(bytes, 3);
    const batch = statusBatchOf({ houses: larger.subarray(3), tops: [null], at: 7 });
    expect(batch).toMatchObject({ tops: [null], at: 7 });
    expect([...batch!.houses]).toEqual(houses);
  });

  it('drops bytes that are not whole houses rather than misread them', () => {
    const bytes = packStatusHouses(houses);
    expect(statusBatchOf({ houses: bytes.subarray(0, 8), tops: [], at: 1 })).toBeNull();
    expect(statusBatchOf({ houses: new ArrayBuffer(0), tops: [], at: 1 })!.houses).toHaveLength(0);
  });
});
