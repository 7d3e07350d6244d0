import type { AlarmCause, AlarmSeverity, HouseAlarmLimits } from '../../src/contract/alarms';
import { EARLY_WARNING_SEVERITY } from '../production/warningRules';
import { cachedThresholdsOf, DEFAULT_LIMITS, keyOf } from './thresholds';

export { DEFAULT_LIMITS, keyOf, thresholdsOf } from './thresholds';

/**
 * The alarm rules, pure: a house's context, a reading (or a signal) and the rule state in →
 * the new rule state and the lifecycle steps out. No clock, no database: the time is the
 * reading's. The engine (engine.ts) keeps the state in `alarm_rule_state` and applies the steps.
 */

/** Empty house (run mode 99): no alarms at all. */
export const EMPTY_HOUSE_MODE = 99;

export const SEVERITY: Record<AlarmCause, AlarmSeverity> = {
  temperatureHigh: 'critical',
  temperatureLow: 'critical',
  gatewayOffline: 'critical',
  deviceError: 'major',
  controllerAlarm: 'major',
  diInput: 'major',
  co2High: 'major',
  nh3High: 'major',
  humidityHigh: 'minor',
  humidityLow: 'minor',
  pressureHigh: 'minor',
  pressureLow: 'minor',
  sensorFault: 'minor',
  sensorStuck: 'minor',
  ...EARLY_WARNING_SEVERITY,
};

/** Sensors watched for a stuck value: a live climate sensor never shows one value for hours. */
export const STUCK_METRICS = ['temperature', 'humidity', 'co2', 'nh3', 'pressure'] as const;

/** The breed's targets at the flock's age (interpolated) and the house's own limits. */
export interface HouseRules {
  houseId: number;
  targetTemperature: number | null;
  breedHumidity: number | null;
  breedCo2: number | null;
  limits: HouseAlarmLimits;
  /** The controller's parameters as it last reported them (its own alarm limits among them). */
  controller?: Readonly<Record<string, number>> | null;
}

export interface RuleState {
  /** Time (ms) of the newest reading evaluated: an older one arriving late is not evaluated. */
  lastTs: number;
  /** Condition key → since when (ms) it holds without an alarm yet (minimum duration). */
  pending: Record<string, number>;
  /** Metric → [value, since ms]: the current run of one unchanged value. */
  stuck: Record<string, [number, number]>;
}

export const emptyRuleState = (): RuleState => ({ lastTs: 0, pending: {}, stuck: {} });

/** An open alarm as the rules see it: whether its condition has ended (and since when). */
export interface OpenAlarm {
  endedAt: number | null;
}

export interface Condition {
  cause: AlarmCause;
  subject: string;
  /** keyOf(cause, subject), when the caller has it already. */
  key?: string;
  active: boolean;
  value: number | null;
  limit: number | null;
  text: string | null;
  severity?: AlarmSeverity;
  /** Overrides the house's minimum duration (0 for signals that are already debounced). */
  minDurationMs?: number;
  clearHoldMs?: number;
}

export interface Step {
  kind: 'raise' | 'recur' | 'end' | 'clear';
  cause: AlarmCause;
  subject: string;
  severity: AlarmSeverity;
  value: number | null;
  limit: number | null;
  text: string | null;
  at: number;
}

export interface RuleReading {
  ts: number;
  mode: number | null;
  metrics: Record<string, number>;
  faults: Record<string, string>;
  devices: Record<string, { state: number }>;
}

/**
 * One string per (cause, subject) for the life of the process: every reading's conditions use
 * the same few dozen keys, and building them anew cost a string each, twice, ~40 times a reading.
 */
const keysByCause = new Map<string, Map<string, string>>();
const MAX_KEYS_PER_CAUSE = 1_000;

function conditionKey(cause: AlarmCause, subject: string): string {
  let bySubject = keysByCause.get(cause);
  if (!bySubject) keysByCause.set(cause, (bySubject = new Map()));
  let key = bySubject.get(subject);
  if (key === undefined) {
    key = keyOf(cause, subject);
    if (bySubject.size < MAX_KEYS_PER_CAUSE) bySubject.set(subject, key);
  }
  return key;
}

/**
 * Every condition of a reading that can change something: one that holds without its alarm
 * up, or one whose alarm or pending start it may end. A normal reading in a calm house yields
 * none, which is most of them, so nothing is built for it; nor does a condition that still
 * holds while its alarm is up (stepsOf would pass it by): a house in alarm built one object per
 * alarm for every reading, a tenth of what the server allocated per reading at full load.
 */
export function conditionsOf(
  rules: HouseRules,
  reading: RuleReading,
  state: RuleState,
  open: ReadonlyMap<string, OpenAlarm>,
): Condition[] {
  const conditions: Condition[] = [];
  const pending = state.pending;
  for (const t of cachedThresholdsOf(rules)) {
    const value = reading.metrics[t.metric];
    if (value === undefined) continue;
    const alarm = open.get(t.key);
    const waiting = pending[t.key] !== undefined;
    // An alarm already up (or pending) holds to its clear level.
    const level = waiting || isUp(alarm) ? t.clear : t.raise;
    const active = t.above ? value > level : value < level;
    if (active ? isUp(alarm) : !waiting && alarm === undefined) continue;
    conditions.push({
      cause: t.cause,
      subject: t.metric,
      key: t.key,
      active,
      value,
      limit: t.raise,
      text: null,
    });
  }
  for (const metric in reading.faults) {
    const kind = reading.faults[metric]!;
    const key = conditionKey('sensorFault', metric);
    const active = kind === 'notConnected' || kind === 'error';
    if (active ? isUp(open.get(key)) : pending[key] === undefined && !open.has(key)) continue;
    conditions.push({
      cause: 'sensorFault',
      subject: metric,
      key,
      active,
      value: null,
      limit: null,
      text: kind,
    });
  }
  // A number where a fault was clears it. Only the house's open and pending conditions are
  // looked at (a few, in a house with any), not each of the reading's ~30 metrics: with one
  // alarm open, that walk was half of this function's time (1.7 -> 0.8 µs a reading).
  for (const key of open.keys()) clearedFault(key, reading, conditions);
  for (const key in pending) if (!open.has(key)) clearedFault(key, reading, conditions);
  const stuckMs = (rules.limits.stuckMinutes ?? DEFAULT_LIMITS.stuckMinutes) * 60_000;
  for (const metric of STUCK_METRICS) {
    const value = reading.metrics[metric];
    if (value === undefined) continue;
    const run = state.stuck[metric];
    let since = reading.ts;
    if (run && run[0] === value) since = run[1];
    else if (run) {
      // A new run, in the same pair: a sensor's value changes nearly every reading.
      run[0] = value;
      run[1] = since;
    } else state.stuck[metric] = [value, since];
    const key = STUCK_KEYS[metric];
    const active = reading.ts - since >= stuckMs;
    if (active ? isUp(open.get(key)) : pending[key] === undefined && !open.has(key)) continue;
    conditions.push({
      cause: 'sensorStuck',
      subject: metric,
      key,
      active,
      value,
      limit: null,
      text: null,
      minDurationMs: 0,
    });
  }
  for (const device in reading.devices) {
    const deviceState = reading.devices[device]!.state;
    const key = conditionKey('deviceError', device);
    const active = deviceState === 3;
    if (active ? isUp(open.get(key)) : pending[key] === undefined && !open.has(key)) continue;
    conditions.push({
      cause: 'deviceError',
      subject: device,
      key,
      active,
      value: deviceState,
      limit: null,
      text: null,
    });
  }
  return conditions;
}

/** An alarm raised and not ended: a condition that still holds changes nothing of it. */
function isUp(alarm: OpenAlarm | undefined): boolean {
  return alarm !== undefined && alarm.endedAt === null;
}

const STUCK_KEYS = Object.fromEntries(
  STUCK_METRICS.map((m) => [m, keyOf('sensorStuck', m)]),
) as Record<(typeof STUCK_METRICS)[number], string>;

const FAULT_KEY_PREFIX = keyOf('sensorFault', '');

/** A fault condition (by its key) that the reading clears: it brings that metric's number. */
function clearedFault(key: string, reading: RuleReading, conditions: Condition[]): void {
  if (!key.startsWith(FAULT_KEY_PREFIX)) return;
  const metric = key.slice(FAULT_KEY_PREFIX.length);
  if (typeof reading.metrics[metric] !== 'number') return;
  conditions.push({
    cause: 'sensorFault',
    subject: metric,
    key,
    active: false,
    value: null,
    limit: null,
    text: null,
  });
}

export interface Timing {
  minDurationMs: number;
  clearHoldMs: number;
}

export function timingOf(limits: HouseAlarmLimits): Timing {
  return {
    minDurationMs: (limits.minDurationSeconds ?? DEFAULT_LIMITS.minDurationSeconds) * 1000,
    clearHoldMs: (limits.clearHoldSeconds ?? DEFAULT_LIMITS.clearHoldSeconds) * 1000,
  };
}

/**
 * The lifecycle of each condition: it must hold `minDuration` before an alarm is raised; once
 * up, the alarm clears only after the condition has been gone `clearHold`; a return inside the
 * hold is one more occurrence of the same alarm. Mutates `state.pending`.
 */
export function stepsOf(
  conditions: readonly Condition[],
  state: RuleState,
  open: ReadonlyMap<string, OpenAlarm>,
  ts: number,
  timing: Timing,
): Step[] {
  const steps: Step[] = [];
  // Runs for every condition of every reading (about 40 each): no closures, and `delete` only
  // where there is something to delete (it turns the object into a slow dictionary).
  for (const c of conditions) {
    const key = c.key ?? keyOf(c.cause, c.subject);
    const alarm = open.get(key);
    if (c.active) {
      if (alarm) {
        if (alarm.endedAt !== null) steps.push(stepOf('recur', c, ts));
        continue;
      }
      const since = state.pending[key] ?? ts;
      if (ts - since >= (c.minDurationMs ?? timing.minDurationMs)) {
        delete state.pending[key];
        steps.push(stepOf('raise', c, ts));
      } else state.pending[key] = since;
      continue;
    }
    if (state.pending[key] !== undefined) delete state.pending[key];
    if (!alarm) continue;
    if (alarm.endedAt === null) {
      const hold = c.clearHoldMs ?? timing.clearHoldMs;
      steps.push(stepOf(hold <= 0 ? 'clear' : 'end', c, ts));
    } else if (ts - alarm.endedAt >= (c.clearHoldMs ?? timing.clearHoldMs))
      steps.push(stepOf('clear', c, ts));
  }
  return steps;
}

function stepOf(kind: Step['kind'], c: Condition, at: number): Step {
  return {
    kind,
    cause: c.cause,
    subject: c.subject,
    severity: c.severity ?? SEVERITY[c.cause],
    value: c.value,
    limit: c.limit,
    text: c.text,
    at,
  };
}

/** Everything a reading does to a house's alarms. An empty house ends every open alarm. */
export function evaluateReading(
  rules: HouseRules,
  reading: RuleReading,
  state: RuleState,
  open: ReadonlyMap<string, OpenAlarm>,
): Step[] {
  if (reading.ts < state.lastTs) return [];
  state.lastTs = reading.ts;
  const timing = timingOf(rules.limits);
  if (reading.mode === EMPTY_HOUSE_MODE) {
    state.pending = {};
    state.stuck = {};
    const ending: Condition[] = [...open.keys()].map((key) => {
      const [cause, subject] = key.split('|') as [AlarmCause, string];
      return { cause, subject, active: false, value: null, limit: null, text: null };
    });
    return stepsOf(ending, state, open, reading.ts, timing);
  }
  return stepsOf(conditionsOf(rules, reading, state, open), state, open, reading.ts, timing);
}
