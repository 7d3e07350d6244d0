import { permutation, unitHash } from './random';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export const FAULT_KINDS = ['probe', 'heat', 'offline'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

interface FaultPlan {
  /** Each house has one fault of this kind per period: rare for a house, frequent for a farm. */
  periodMs: number;
  minDurationMs: number;
  maxDurationMs: number;
}

/**
 * With 42 houses the fleet sees a probe fault or an offline gateway every ~9 minutes and a heat
 * event every ~11 minutes, each house once every 6–8 hours: alarms and offline houses are
 * always on show in the demo without any one house looking broken.
 */
export const FAULT_PLANS: Record<FaultKind, FaultPlan> = {
  // A probe unplugged for a few minutes: reads −999 (not connected).
  probe: { periodMs: 6 * HOUR_MS, minDurationMs: 3 * MINUTE_MS, maxDurationMs: 8 * MINUTE_MS },
  // Fans fail and the house heats up: long enough to climb several degrees.
  heat: { periodMs: 8 * HOUR_MS, minDurationMs: 8 * MINUTE_MS, maxDurationMs: 15 * MINUTE_MS },
  // The gateway drops off the network and comes back a few minutes later.
  offline: { periodMs: 6 * HOUR_MS, minDurationMs: 2 * MINUTE_MS, maxDurationMs: 5 * MINUTE_MS },
};

/** The first faults wait this long after the start, so the demo first shows a calm farm. */
export const FAULT_START_DELAY_MS = 2 * MINUTE_MS;
/** Spread of a fault's start within its slot: below 1 so slots of neighbours do not merge. */
const SLOT_JITTER = 0.9;

export interface FaultWindow {
  kind: FaultKind;
  startMs: number;
  endMs: number;
  /** Seeded detail of this occurrence in [0, 1): which probe, how hot, how many fans. */
  detail: number;
}

export interface ActiveFaults {
  /** The disconnected probe (1–4), or null. */
  probe: number | null;
  /** Degrees the house heads for above its normal temperature during a fan failure, or 0. */
  heatRiseC: number;
  /** Fans that failed in the heat event (fan_1 … fan_n), 0 without one. */
  failedFans: number;
  offline: boolean;
}

/**
 * The houses of a fleet share its permutations: one per house made a fleet of N cost N² (a
 * 19,000-house bench fleet took 90 s to build, a blocked event loop all the while). A few
 * fleets at a time are all a process makes.
 */
const slotOrders = new Map<string, readonly number[]>();
const SLOT_ORDERS_KEPT = 16;

function slotOrder(fleetSize: number, seed: number): readonly number[] {
  const key = `${fleetSize}:${seed}`;
  let order = slotOrders.get(key);
  if (!order) {
    if (slotOrders.size >= SLOT_ORDERS_KEPT) slotOrders.clear();
    order = permutation(fleetSize, seed);
    slotOrders.set(key, order);
  }
  return order;
}

/**
 * A seeded fault calendar for one house. Slots are spread evenly over the fleet per kind (a
 * seeded permutation of the houses), so with N houses some house starts a fault of each kind
 * every period/N; within the slot the start and the duration are seeded per occurrence. Being
 * a pure function of time, the calendar does not depend on how often the house is stepped.
 */
export class FaultCalendar {
  private readonly slots: Record<FaultKind, number>;

  constructor(
    private readonly seed: number,
    private readonly houseKey: number,
    index: number,
    private readonly fleetSize: number,
    private readonly startMs: number,
    /** Stretches every kind's period: a demo's past is far calmer than its live show. */
    private readonly periodScale = 1,
  ) {
    const slotOf = (kind: number) => slotOrder(fleetSize, seed * 31 + kind)[index] ?? 0;
    this.slots = { probe: slotOf(1), heat: slotOf(2), offline: slotOf(3) };
  }

  /** The window of one occurrence (cycle ≥ 0) of a kind. */
  windowOf(kind: FaultKind, cycle: number): FaultWindow {
    const plan = FAULT_PLANS[kind];
    const kindIndex = FAULT_KINDS.indexOf(kind);
    const jitter = unitHash(this.seed, this.houseKey, kindIndex, cycle, 1) * SLOT_JITTER;
    const periodMs = plan.periodMs * this.periodScale;
    const slotMs = periodMs / this.fleetSize;
    const startMs =
      this.startMs + FAULT_START_DELAY_MS + cycle * periodMs + (this.slots[kind] + jitter) * slotMs;
    const duration =
      plan.minDurationMs +
      unitHash(this.seed, this.houseKey, kindIndex, cycle, 2) *
        (plan.maxDurationMs - plan.minDurationMs);
    return {
      kind,
      startMs,
      endMs: startMs + duration,
      detail: unitHash(this.seed, this.houseKey, kindIndex, cycle, 3),
    };
  }

  /** The window of a kind that covers `timeMs`, if any. */
  activeWindow(kind: FaultKind, timeMs: number): FaultWindow | null {
    const cycle = Math.floor(
      (timeMs - this.startMs - FAULT_START_DELAY_MS) /
        (FAULT_PLANS[kind].periodMs * this.periodScale),
    );
    // A window may start late in one cycle and run into the next.
    for (const c of [cycle, cycle - 1]) {
      if (c < 0) continue;
      const window = this.windowOf(kind, c);
      if (timeMs >= window.startMs && timeMs < window.endMs) return window;
    }
    return null;
  }

  /** Every window of every kind that overlaps [fromMs, toMs), in no particular order. */
  windowsBetween(fromMs: number, toMs: number): FaultWindow[] {
    const out: FaultWindow[] = [];
    for (const kind of FAULT_KINDS) {
      const periodMs = FAULT_PLANS[kind].periodMs * this.periodScale;
      const first = Math.max(0, Math.floor((fromMs - this.startMs) / periodMs) - 1);
      for (let c = first; ; c += 1) {
        const window = this.windowOf(kind, c);
        if (window.startMs >= toMs) break;
        if (window.endMs > fromMs) out.push(window);
      }
    }
    return out;
  }

  activeAt(timeMs: number): ActiveFaults {
    const probe = this.activeWindow('probe', timeMs);
    const heat = this.activeWindow('heat', timeMs);
    return {
      probe: probe ? 1 + Math.floor(probe.detail * 4) : null,
      heatRiseC: heat ? 6 + 3 * heat.detail : 0,
      failedFans: heat ? 2 + Math.floor(heat.detail * 2) : 0,
      offline: this.activeWindow('offline', timeMs) !== null,
    };
  }
}
