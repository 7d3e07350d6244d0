/**
 * Seeded randomness for the simulator. Two kinds: a stream (`Random`) for noise that follows
 * the order of readings, and stateless hashes (`unitHash`) for things that must be a pure
 * function of time (weather, fault calendar), so they do not depend on how often a house is
 * stepped.
 */

/** Mixes 32-bit integers into one well-spread 32-bit value (murmur3's finaliser per step). */
export function mix32(...values: number[]): number {
  let h = 0x811c9dc5;
  for (const value of values) {
    h = Math.imul(h ^ (value | 0), 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** FNV-1a of a string: a house's network id becomes part of its seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/** A uniform number in [0, 1) that depends only on its inputs. */
export function unitHash(...values: number[]): number {
  return mix32(...values) / 4_294_967_296;
}

/** A standard normal number that depends only on its inputs. */
export function normalHash(...values: number[]): number {
  const u = Math.max(unitHash(...values, 1), Number.MIN_VALUE);
  const v = unitHash(...values, 2);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** mulberry32: small, fast, and good enough for simulated sensor noise. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = Math.max(this.next(), Number.MIN_VALUE);
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A Poisson count with mean `lambda`: exact for small means, normal beyond. */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k += 1;
      p *= this.next();
    }
    return k;
  }
}

/** A seeded Fisher–Yates permutation of 0 … n−1. */
export function permutation(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  const random = new Random(seed);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(random.next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
