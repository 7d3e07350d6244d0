import { checkParam, CURVE_DAYS, paramsOfType } from '../../src/contract/envcontrol';
import {
  configSetSchema,
  type ConfigAck,
  type ConfigReport,
  type ConfigSet,
  type GatewayTopic,
} from '../../src/contract/gateway';
import type { GatewayLink } from './gatewayLink';

/** How long a controller takes to apply a configuration: it writes its flash and reads back. */
export const APPLY_DELAY_MS: readonly [number, number] = [800, 2_500];
/** Chance per reading that someone changes a parameter at the controller's own keypad. */
export const LOCAL_CHANGE_CHANCE = 0.002;

/** What a controller holds before anybody configures it: a broiler programme. */
const DEFAULTS: Record<string, number> = {
  ...Object.fromEntries(
    CURVE_DAYS.map((day, i) => [`curve_temp_d${day}`, [33, 30, 27, 24, 22, 21, 20][i]!]),
  ),
  heat_offset: 1,
  cool_offset: 2,
  minvent_on_s: 60,
  minvent_off_s: 240,
  minvent_fans: 2,
  vent_level_max: 10,
  inlet_open_pct: 30,
  alarm_temp_high: 35,
  alarm_temp_low: 15,
  alarm_humidity_high: 85,
  alarm_humidity_low: 40,
  alarm_co2_high: 3000,
  alarm_nh3_high: 25,
  alarm_pressure_high: 50,
  alarm_pressure_low: 5,
  light_on_hour: 5,
  light_hours: 18,
  light_intensity: 20,
  feed_hour_1: 6,
  feed_hour_2: 12,
  feed_hour_3: 18,
};

/** Pairs a controller refuses to hold the wrong way round: [low, high, reason]. */
const ORDERED: ReadonlyArray<readonly [string, string, string]> = [
  [
    'alarm_temp_low',
    'alarm_temp_high',
    'low temperature alarm must be below high temperature alarm',
  ],
  [
    'alarm_humidity_low',
    'alarm_humidity_high',
    'low humidity alarm must be below high humidity alarm',
  ],
  [
    'alarm_pressure_low',
    'alarm_pressure_high',
    'low pressure alarm must be below high pressure alarm',
  ],
];

export interface ConfigAgentOptions {
  applyDelayMs?: readonly [number, number];
  localChangeChance?: number;
  random?: () => number;
}

/**
 * The controller behind a simulated gateway: holds its parameters, applies a configuration
 * after a realistic delay and reads the values back, refuses what a controller would (an
 * unknown parameter, a value out of range, limits the wrong way round), answers a command it
 * has seen again with the same answer, and now and then is changed at its own keypad.
 */
export class ConfigAgent {
  readonly params: Record<string, number>;
  private readonly answers = new Map<string, ConfigAck>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly delay: readonly [number, number];
  private readonly localChance: number;
  private readonly random: () => number;

  constructor(
    private readonly typeKey: number,
    private readonly link: GatewayLink,
    options: ConfigAgentOptions = {},
  ) {
    this.params = Object.fromEntries(paramsOfType(typeKey).map((s) => [s.key, DEFAULTS[s.key]!]));
    this.delay = options.applyDelayMs ?? APPLY_DELAY_MS;
    this.localChance = options.localChangeChance ?? LOCAL_CHANGE_CHANCE;
    this.random = options.random ?? Math.random;
    link.onConnected(() => this.report('device'));
    link.onCommand((kind, payload) => this.command(kind, payload));
  }

  /** Called once per reading: sometimes a person at the controller changes a set-point. */
  tick(): void {
    if (this.localChance <= 0 || this.random() >= this.localChance) return;
    this.changeLocally();
  }

  /** A person at the controller changes one value (tests call it directly). */
  changeLocally(key = 'heat_offset', delta = 0.5): void {
    if (!(key in this.params)) return;
    const next = Math.round((this.params[key]! + delta) * 10) / 10;
    if (checkParam(this.typeKey, key, next)) return;
    this.params[key] = next;
    this.report('local');
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private report(source: 'device' | 'local'): void {
    this.link.enqueue('config/report', {
      ts: Date.now(),
      version: this.link.version,
      params: { ...this.params },
      source,
    } satisfies ConfigReport);
  }

  private command(kind: GatewayTopic, payload: Buffer): void {
    if (kind !== 'config/set') return;
    let parsed: ConfigSet;
    try {
      parsed = configSetSchema.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      return;
    }
    const known = this.answers.get(parsed.id);
    if (known) {
      this.link.enqueue('config/ack', known);
      return;
    }
    const [min, max] = this.delay;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.apply(parsed);
      },
      min + this.random() * (max - min),
    );
    this.timers.add(timer);
  }

  private apply(command: ConfigSet): void {
    if (this.answers.has(command.id)) return;
    const answer = this.answer(command);
    this.answers.set(command.id, answer);
    this.link.enqueue('config/ack', answer);
  }

  private answer(command: ConfigSet): ConfigAck {
    for (const [key, value] of Object.entries(command.params)) {
      const issue = checkParam(this.typeKey, key, value);
      if (issue) return { id: command.id, status: 'rejected', reason: `${key}: ${issue.message}` };
    }
    const next = { ...this.params, ...command.params };
    for (const [low, high, reason] of ORDERED)
      if (low in next && high in next && next[low]! >= next[high]!)
        return { id: command.id, status: 'rejected', reason };
    Object.assign(this.params, command.params);
    const values = Object.fromEntries(Object.keys(command.params).map((k) => [k, this.params[k]!]));
    return { id: command.id, status: 'applied', values };
  }
}
