import type { AlarmCause, AlarmSeverity } from '../../../src/contract/alarms';
import { METRIC_KEYS, sentinelOf, type SentinelKind } from '../../../src/contract/metrics';
import {
  emptyRuleState,
  evaluateReading,
  keyOf,
  stepsOf,
  type Condition,
  type HouseRules,
  type OpenAlarm,
  type RuleReading,
  type Step,
} from '../../alarms/rules';
import type { Reading } from '../../ingest/types';
import { ageInDays, standardOf, targetsAt } from '../../simulator/flock';
import { EMPTY_HOUSE_MODE, type FlockPeriod, type HouseModel } from '../../simulator/houseModel';
import type { DemoGateway } from '../seed';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Around a past fault the house is stepped as often as live, so its alarms rise and clear as live. */
const FAULT_LEAD_MS = 5 * MINUTE_MS;
const FAULT_TAIL_MS = 20 * MINUTE_MS;
/** Offline and controller signals are debounced by their source: the engine acts at once. */
const IMMEDIATE = { minDurationMs: 0, clearHoldMs: 0 };
const WIDTH = METRIC_KEYS.length;
const NO_DEVICES = {};

/** One rollup bucket: readings, then min, max, sum, n per metric (n = 0: no value). */
export interface Bucket {
  readings: number;
  agg: Float64Array;
}

export interface PastAlarm {
  cause: AlarmCause;
  subject: string;
  severity: AlarmSeverity;
  value: number | null;
  limit: number | null;
  text: string | null;
  raisedAt: number;
  endedAt: number | null;
  clearedAt: number;
  occurrences: number;
}

export interface HouseHistory {
  /** Raw readings of the raw window, oldest first. */
  raw: Reading[];
  hours: Map<number, Bucket>;
  alarms: PastAlarm[];
  lastTs: number;
}

export interface HistoryPlan {
  fromMs: number;
  toMs: number;
  /** Raw readings are kept from here on, at `rawStepMs`. */
  rawFromMs: number;
  rawStepMs: number;
  /** The step of the older past, where only the rollups are kept. */
  coarseStepMs: number;
}

export interface HouseIds {
  gatewayId: number;
  houseId: number;
  farmId: number;
}

/**
 * Steps one house model through its past on a simulated clock: coarse steps for the rollups,
 * live-rate steps around faults and over the raw window. Each reading is rolled up into its
 * hour and evaluated by the alarm rules exactly as the engine would on ingest.
 */
export function generateHouseHistory(
  model: HouseModel,
  gateway: DemoGateway,
  ids: HouseIds,
  plan: HistoryPlan,
): HouseHistory {
  const windows = model
    .pastFaultWindows(plan.fromMs, plan.toMs)
    .map((w) => [w.startMs - FAULT_LEAD_MS, w.endMs + FAULT_TAIL_MS] as const)
    .sort((a, b) => a[0] - b[0]);
  const hours = new Map<number, Bucket>();
  const raw: Reading[] = [];
  const alarms = new PastAlarms(ids.houseId);
  let offline = false;
  let w = 0;
  let t = plan.fromMs;
  let lastTs = t;
  while (t < plan.toMs) {
    const step = model.next(t);
    const message = step.message;
    lastTs = message.ts;
    const { metrics, faults } = splitSentinels(message.metrics);
    const mode = message.mode ?? null;
    addToHour(hours, message.ts, metrics);
    if (t >= plan.rawFromMs) {
      const ts = new Date(message.ts);
      raw.push({
        ...ids,
        networkId: gateway.networkId,
        ts,
        receivedAt: ts,
        seq: message.seq,
        mode,
        metrics,
        faults,
        devices: message.devices ?? {},
      });
    }
    alarms.evaluate(
      { ts: message.ts, mode, metrics, faults, devices: message.devices ?? NO_DEVICES },
      model.flockAt(message.ts),
      gateway.breed,
    );
    if (step.offline !== offline) {
      offline = step.offline;
      alarms.signal({ ...signal('gatewayOffline', ''), active: offline }, message.ts);
    }
    for (const event of step.events) {
      if (mode === EMPTY_HOUSE_MODE) continue;
      const c = signal('controllerAlarm', event.code);
      alarms.signal({ ...c, active: event.active, text: event.text ?? null }, message.ts);
    }
    while (w < windows.length && windows[w]![1] <= t) w += 1;
    const inFault = w < windows.length && windows[w]![0] <= t;
    let next = t + (inFault || t >= plan.rawFromMs ? plan.rawStepMs : plan.coarseStepMs);
    // A coarse step never jumps over the start of a fault or of the raw window.
    if (w < windows.length && windows[w]![0] > t) next = Math.min(next, windows[w]![0]);
    if (t < plan.rawFromMs) next = Math.min(next, plan.rawFromMs);
    t = next;
  }
  return { raw, hours, alarms: alarms.finish(lastTs), lastTs };
}

const signal = (cause: AlarmCause, subject: string): Condition => ({
  cause,
  subject,
  active: false,
  value: null,
  limit: null,
  text: null,
});

/** Sentinels (−999: probe not connected) are faults, never numbers, as decoding makes them. */
export function splitSentinels(values: Record<string, number>): {
  metrics: Record<string, number>;
  faults: Record<string, SentinelKind>;
} {
  let faults: Record<string, SentinelKind> | null = null;
  for (const key in values) {
    const kind = sentinelOf(values[key]!);
    if (kind) (faults ??= {})[key] = kind;
  }
  if (!faults) return { metrics: values, faults: {} };
  const metrics: Record<string, number> = {};
  for (const key in values) if (!(key in faults)) metrics[key] = values[key]!;
  return { metrics, faults };
}

/**
 * Adds a reading to its hour: min, max, sum, n. The model's values as they are (1–3 decimals),
 * not float4-rounded as the live writer sums them: a real column reads "23.4" as the same float4
 * either way, and the short text is a good part of what PGlite spends parsing months of rows.
 */
export function addToHour(
  hours: Map<number, Bucket>,
  ts: number,
  metrics: Record<string, number>,
): void {
  const bucket = Math.floor(ts / HOUR_MS) * HOUR_MS;
  let row = hours.get(bucket);
  if (!row) hours.set(bucket, (row = { readings: 0, agg: new Float64Array(WIDTH * 4) }));
  row.readings += 1;
  const agg = row.agg;
  for (let m = 0; m < WIDTH; m += 1) {
    const raw = metrics[METRIC_KEYS[m]!];
    if (raw === undefined) continue;
    const v = raw;
    const at = m * 4;
    if (agg[at + 3] === 0) {
      agg[at] = v;
      agg[at + 1] = v;
    } else {
      if (v < agg[at]!) agg[at] = v;
      if (v > agg[at + 1]!) agg[at + 1] = v;
    }
    agg[at + 2]! += v;
    agg[at + 3]! += 1;
  }
}

/** Merges hours into days as the daily rollup does (min of mins, sums of sums). */
export function rollDays(hours: Map<number, Bucket>, dayOf: (ms: number) => number) {
  const days = new Map<number, Bucket>();
  for (const [hour, row] of hours) {
    const day = dayOf(hour);
    let into = days.get(day);
    if (!into) days.set(day, (into = { readings: 0, agg: new Float64Array(WIDTH * 4) }));
    into.readings += row.readings;
    for (let at = 0; at < WIDTH * 4; at += 4) {
      if (row.agg[at + 3] === 0) continue;
      if (into.agg[at + 3] === 0 || row.agg[at]! < into.agg[at]!) into.agg[at] = row.agg[at]!;
      if (into.agg[at + 3] === 0 || row.agg[at + 1]! > into.agg[at + 1]!)
        into.agg[at + 1] = row.agg[at + 1]!;
      into.agg[at + 2]! += row.agg[at + 2]!;
      into.agg[at + 3]! += row.agg[at + 3]!;
    }
  }
  return days;
}

/**
 * The alarm rules run over one house's past: the same pure rules and lifecycle steps as the
 * engine, with the open alarms kept here instead of in the alarm table.
 */
class PastAlarms {
  private readonly state = emptyRuleState();
  private readonly open = new Map<string, OpenAlarm>();
  private readonly records = new Map<string, PastAlarm>();
  private readonly done: PastAlarm[] = [];
  private rules: HouseRules;
  private emptyRules: HouseRules | null = null;
  private flock: FlockPeriod | null | undefined = undefined;
  private day = -2;

  constructor(houseId: number) {
    this.rules = {
      houseId,
      targetTemperature: null,
      breedHumidity: null,
      breedCo2: null,
      limits: {},
    };
  }

  evaluate(reading: RuleReading, flock: FlockPeriod | null, breed: DemoGateway['breed']): void {
    // The engine reads the breed's targets at the flock's age in whole days: one context a day.
    const day = flock
      ? Math.floor(ageInDays(flock.placedOn, flock.ageAtPlacement, reading.ts))
      : -1;
    if (flock !== this.flock || day !== this.day) {
      this.flock = flock;
      this.day = day;
      const targets = flock ? targetsAt(standardOf(breed), day) : null;
      this.rules = {
        ...this.rules,
        targetTemperature: targets?.temperature ?? null,
        breedHumidity: targets?.humidity ?? null,
        breedCo2: targets?.co2 ?? null,
      };
    }
    // Without a flock the controller's own target decides, as the engine does.
    let rules = this.rules;
    if (rules.targetTemperature === null) {
      const target = reading.metrics.temperature_target ?? null;
      if (this.emptyRules?.targetTemperature !== target)
        this.emptyRules = { ...rules, targetTemperature: target };
      rules = this.emptyRules;
    }
    this.apply(evaluateReading(rules, reading, this.state, this.open));
  }

  signal(condition: Condition, ts: number): void {
    this.apply(stepsOf([condition], this.state, this.open, ts, IMMEDIATE));
  }

  /** Alarms still open when the past ends are cleared then: the live show starts calm. */
  finish(endMs: number): PastAlarm[] {
    for (const record of this.records.values())
      this.done.push({ ...record, endedAt: record.endedAt ?? endMs, clearedAt: endMs });
    this.records.clear();
    return this.done;
  }

  private apply(steps: readonly Step[]): void {
    for (const s of steps) {
      const key = keyOf(s.cause, s.subject);
      const record = this.records.get(key);
      if (s.kind === 'raise') {
        this.records.set(key, {
          cause: s.cause,
          subject: s.subject,
          severity: s.severity,
          value: s.value,
          limit: s.limit,
          text: s.text,
          raisedAt: s.at,
          endedAt: null,
          clearedAt: 0,
          occurrences: 1,
        });
        this.open.set(key, { endedAt: null });
      } else if (!record) continue;
      else if (s.kind === 'recur') {
        record.occurrences += 1;
        record.endedAt = null;
        record.value = s.value ?? record.value;
        this.open.set(key, { endedAt: null });
      } else if (s.kind === 'end') {
        record.endedAt ??= s.at;
        this.open.set(key, { endedAt: record.endedAt });
      } else {
        this.done.push({ ...record, clearedAt: s.at });
        this.records.delete(key);
        this.open.delete(key);
      }
    }
  }
}
