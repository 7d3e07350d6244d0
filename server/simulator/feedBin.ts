/**
 * A demo house's feed bin: its level (kg) falls by what the flock eats and is refilled by a
 * delivery once only a few hours of feed are left, so the demo's feed-running-out warning raises
 * (under 24 h) and clears (the refill) on its own. Deterministic: no randomness of its own.
 */

/** A 12 t bin, a common size beside a broiler house. */
export const BIN_CAPACITY_KG = 12_000;
/** The delivery arrives when this many hours of feed are left. */
const REFILL_AT_HOURS = 8;
/** Hours of feed left in a bin whose delivery is late (the demo's feed story): under a day. */
export const LATE_DELIVERY_HOURS = 16;
/** The eating rate is followed over about this long (ms), as a driver would judge it. */
const RATE_LAG_MS = 6 * 3_600_000;

export class SimulatedBin {
  private level: number;
  /** kg eaten per ms, smoothed. */
  private rate = 0;

  /**
   * `fill` (0…1): how full the bin is when the simulation starts. `low`: a late delivery, the bin
   * holding only `hours` of the flock's daily feed at `atMs` (the demo's feed story).
   */
  constructor(
    fill: number,
    private low: { atMs: number; hours: number } | null = null,
  ) {
    this.level = BIN_CAPACITY_KG * Math.min(1, Math.max(0.05, fill));
  }

  /**
   * The flock ate `kg` over `dtMs` up to `atMs`: the level after, refilled when it ran low.
   * `dailyKgPerMs`: what the flock eats over a whole day, per ms (its standard at its age).
   */
  take(kg: number, dtMs: number, atMs: number, dailyKgPerMs = 0): number {
    if (dtMs > 0) {
      // The first meal sets the rate: a rate creeping up from nothing would hold back refills.
      const weight = this.rate === 0 ? 1 : Math.min(1, dtMs / RATE_LAG_MS);
      this.rate += (kg / dtMs - this.rate) * weight;
    }
    this.level = Math.max(0, this.level - kg);
    if (this.low && atMs >= this.low.atMs && dailyKgPerMs > 0) {
      // Hours at the day's average, as the feed mill and the early warning count them: the
      // smoothed rate of the moment swings with the lights (birds hardly eat in the dark), and
      // a level set from it could last a day and more. The delivery judges by the same average.
      this.rate = dailyKgPerMs;
      this.level = dailyKgPerMs * this.low.hours * 3_600_000;
      this.low = null;
    }
    if (this.rate > 0 && this.level < this.rate * REFILL_AT_HOURS * 3_600_000)
      this.level = BIN_CAPACITY_KG;
    return Math.round(this.level * 10) / 10;
  }
}
