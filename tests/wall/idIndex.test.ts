import { describe, expect, it } from 'vitest';
import { IdIndex } from '../../src/screens/wall/idIndex';

describe('IdIndex', () => {
  it('answers what was set for an id, -1 for one never set or deleted, and counts the ids', () => {
    const index = new IdIndex();
    expect(index.get(7)).toBe(-1);
    index.set(7, 0);
    index.set(5000, 12);
    index.set(7, 3);
    expect([index.get(7), index.get(5000), index.get(8)]).toEqual([3, 12, -1]);
    expect(index.size).toBe(2);
    index.delete(7);
    index.delete(7);
    expect([index.get(7), index.size]).toEqual([-1, 1]);
    index.clear();
    expect([index.get(5000), index.size]).toEqual([-1, 0]);
  });

  it('keeps thousands of ids, large, negative and fractional ones included, as a Map does', () => {
    const index = new IdIndex();
    const expected = new Map<number, number>();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 20_000; i += 1) {
      const id = random(25) === 0 ? [2 ** 31, 2 ** 22, -4, 1.5][random(4)]! : random(30_000);
      if (random(5) === 0) {
        index.delete(id);
        expected.delete(id);
      } else {
        const value = random(1_000_000);
        index.set(id, value);
        expected.set(id, value);
      }
    }
    expect(index.size).toBe(expected.size);
    for (let id = -5; id < 30_005; id += 1) expect(index.get(id)).toBe(expected.get(id) ?? -1);
    for (const id of [2 ** 31, 2 ** 22, 1.5]) expect(index.get(id)).toBe(expected.get(id) ?? -1);
  });

  it('refuses a value it cannot hold rather than answering another', () => {
    const index = new IdIndex();
    expect(() => index.set(1, -1)).toThrow(RangeError);
    expect(() => index.set(1, 2 ** 31)).toThrow(RangeError);
    expect(() => index.set(1, 0.5)).toThrow(RangeError);
    expect(index.get(1)).toBe(-1);
  });
});
