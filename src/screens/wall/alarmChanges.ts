import { type AlarmCause, type AlarmSeverity } from '../../contract/alarms';
import { IdMarks } from './idMarks';
import { type AlarmChange } from './wallModel';

/**
 * The alarm raises and clears of one update, as much of them as the wall uses: the newest few
 * (the ticker shows no more), the farms where a house raised one (they pulse), and the first
 * raise of each severity (the audible alert beeps once per batch). A storm at 10,000 farms
 * raises and clears thousands a second; an object for each, and the array holding them, were
 * the largest part of the wall's garbage (bench/wall.ts, BENCH_WALL_ALLOCATIONS). Here the
 * newest are written over a ring of objects kept from one update to the next, so an update
 * allocates nothing but its few first raises.
 */
export class AlarmChanges {
  /** The farms with a raise in this update, in the order first raised. */
  readonly raisedFarms = new IdMarks();
  private readonly ring: AlarmChange[] = [];
  /** How many changes this update brought (the ring holds the newest `keep` of them). */
  private total = 0;
  private readonly firstRaises: AlarmChange[] = [];

  /** `keep`: how many of the newest changes `newest()` can answer. */
  constructor(private readonly keep: number) {}

  get size(): number {
    return this.total;
  }

  add(
    kind: AlarmChange['kind'],
    houseId: number,
    farmId: number,
    cause: AlarmCause | null,
    severity: AlarmSeverity | null,
  ): void {
    if (kind === 'raised') {
      this.raisedFarms.add(farmId);
      if (!this.firstRaises.some((c) => c.severity === severity))
        this.firstRaises.push({ kind, houseId, farmId, cause, severity });
    }
    const at = this.total % this.keep;
    this.total += 1;
    const change = this.ring[at];
    if (!change) {
      this.ring[at] = { kind, houseId, farmId, cause, severity };
      return;
    }
    change.kind = kind;
    change.houseId = houseId;
    change.farmId = farmId;
    change.cause = cause;
    change.severity = severity;
  }

  /**
   * Visits the newest changes (at most `keep`) in the order they came. Each is the ring's own
   * object, written over by the next update: use it now, copy what is kept.
   */
  forEachNewest(visit: (change: Readonly<AlarmChange>) => void): void {
    const n = Math.min(this.total, this.keep);
    for (let i = this.total - n; i < this.total; i += 1) visit(this.ring[i % this.keep]!);
  }

  /** The newest changes as copies, safe to keep. */
  newest(): AlarmChange[] {
    const out: AlarmChange[] = [];
    this.forEachNewest((change) => out.push({ ...change }));
    return out;
  }

  /** The first raise of each severity, in the order raised. */
  firstRaiseOfEachSeverity(): readonly AlarmChange[] {
    return this.firstRaises;
  }

  /** Forgets this update's changes; the ring's objects are kept for the next. */
  clear(): void {
    this.total = 0;
    this.raisedFarms.clear();
    this.firstRaises.length = 0;
  }
}
