/** What the live tally needs of the farms it marks as changed (a `Set<number>` will do). */
export interface MarksIds {
  add(id: number): void;
}

/** Ids up to this are marked in a flag array (1 byte each); larger ones in a Set. */
const DENSE_IDS = 1 << 22;

/**
 * The ids marked during one update, kept from one update to the next. A storm changes some
 * 5,000 farms a second at 10,000 farms: a new Set each second grew its table a dozen times
 * (~110 KB of garbage, and the rehashing, per update; bench/wall.ts). Database ids are small
 * integers, so a flag per id and a list of those marked do without any of it.
 */
export class IdMarks implements MarksIds {
  private flags = new Uint8Array(1024);
  private list = new Int32Array(256);
  private count = 0;
  /** Ids too large (or not whole) to flag; never expected of a serial key. */
  private readonly others = new Set<number>();

  add(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= DENSE_IDS) {
      this.others.add(id);
      return;
    }
    if (id >= this.flags.length) this.flags = grown(this.flags, id + 1);
    if (this.flags[id] === 1) return;
    this.flags[id] = 1;
    if (this.count === this.list.length) this.list = grown(this.list, this.count + 1);
    this.list[this.count] = id;
    this.count += 1;
  }

  isEmpty(): boolean {
    return this.count === 0 && this.others.size === 0;
  }

  /** Each marked id once, in the order first marked (the rare large ones last). */
  forEach(each: (id: number) => void): void {
    for (let i = 0; i < this.count; i += 1) each(this.list[i]!);
    for (const id of this.others) each(id);
  }

  /** Unmarks every id; the arrays are kept for the next update. */
  clear(): void {
    for (let i = 0; i < this.count; i += 1) this.flags[this.list[i]!] = 0;
    this.count = 0;
    this.others.clear();
  }
}

/** The array at twice its length, or more, until `atLeast` fits; its contents kept. */
export function grown<A extends Uint8Array | Int32Array>(array: A, atLeast: number): A {
  let length = array.length;
  while (length < atLeast) length *= 2;
  const next = new (array.constructor as new (length: number) => A)(length);
  next.set(array);
  return next;
}
