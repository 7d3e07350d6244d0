/**
 * What the edge's Modbus requests took, between two stats lines: the person running it (and
 * the bench) sees how busy its lines are without a profiler. Round trips are kept in a bounded
 * sample so a long period costs no more memory than a short one.
 */
const SAMPLE = 20_000;

export class EdgeStats {
  private times: number[] = [];
  private seen = 0;
  private failed = 0;

  /** One answered request: milliseconds from sending it to its answer. */
  answered(ms: number): void {
    this.seen += 1;
    if (this.times.length < SAMPLE) this.times.push(ms);
    else {
      // Reservoir sampling: every request of the period equally likely to be kept.
      const slot = Math.floor(Math.random() * this.seen);
      if (slot < SAMPLE) this.times[slot] = ms;
    }
  }

  /** A request with no answer (a timeout, a lost connection) or a Modbus exception. */
  failure(): void {
    this.failed += 1;
  }

  /** The period's figures; starts the next period. */
  take(): { requests: number; failed: number; p50Ms: number; p99Ms: number } {
    const sorted = this.times.sort((a, b) => a - b);
    const at = (q: number) =>
      sorted.length
        ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 100) /
          100
        : 0;
    const out = { requests: this.seen, failed: this.failed, p50Ms: at(0.5), p99Ms: at(0.99) };
    this.times = [];
    this.seen = 0;
    this.failed = 0;
    return out;
  }
}
