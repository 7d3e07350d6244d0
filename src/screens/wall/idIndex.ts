import { grown } from './idMarks';

/** Ids below this are kept in a dense array (4 bytes each); larger ones in a Map. */
const DENSE_IDS = 1 << 22;

/**
 * A number (a slot, an index) for each id, as a `Map<number, number>` would keep it. A storm at
 * 10,000 farms looks up some 5,000 houses and their farms each second, two or three lookups
 * apiece: in a Map (hashing each key) they were half of the wall's own update (bench/wall.ts).
 * Database ids are small integers, so an array indexed by id does without the hashing; an id
 * too large (or not whole), never expected of a serial key, still works, in a Map.
 */
export class IdIndex {
  /** Each dense id's number plus one; 0 for an id not held. */
  private dense: Int32Array = new Int32Array(1024);
  private readonly others = new Map<number, number>();
  private held = 0;

  /** How many ids are held. */
  get size(): number {
    return this.held;
  }

  /** The id's number, or -1 when the id is not held. */
  get(id: number): number {
    if (id >= 0 && id < this.dense.length && Number.isInteger(id)) return this.dense[id]! - 1;
    return this.others.get(id) ?? -1;
  }

  /** Holds `value` (a whole number from 0 up to 2³¹ − 2) for the id. */
  set(id: number, value: number): void {
    if (!Number.isInteger(value) || value < 0 || value >= 0x7fff_ffff)
      throw new RangeError(`IdIndex holds whole numbers from 0, not ${value}`);
    if (!Number.isInteger(id) || id < 0 || id >= DENSE_IDS) {
      if (!this.others.has(id)) this.held += 1;
      this.others.set(id, value);
      return;
    }
    if (id >= this.dense.length) this.dense = grown(this.dense, id + 1);
    if (this.dense[id] === 0) this.held += 1;
    this.dense[id] = value + 1;
  }

  delete(id: number): void {
    if (id >= 0 && id < this.dense.length && Number.isInteger(id)) {
      if (this.dense[id] !== 0) this.held -= 1;
      this.dense[id] = 0;
    } else if (this.others.delete(id)) this.held -= 1;
  }

  clear(): void {
    this.dense.fill(0);
    this.others.clear();
    this.held = 0;
  }
}
