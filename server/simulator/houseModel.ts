import { gatewayKind, isGatewayTypeKey } from '../../src/contract/gatewayTypes';
import { type GatewayEventMessage } from '../../src/contract/gateway';
import { FEED_BIN_CODE } from '../../src/contract/earlyWarnings';
import { LATE_DELIVERY_HOURS, SimulatedBin } from './feedBin';
import type { DemoGateway } from '../demo/seed';
import { outdoorWeather, solarHour } from './climate';
import { GatewayAlarms } from './alarmEvents';
import { runController, type DeviceReading } from './controller';
import { FaultCalendar, type ActiveFaults, type FaultWindow } from './faults';
import {
  ageInDays,
  dailyMortality,
  intakeFactor,
  layingFactor,
  placedMsOf,
  standardOf,
  targetsAt,
  type Targets,
} from './flock';
import { hashString, mix32, Random } from './random';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** Indoor air and structure follow a change in heat balance within minutes. */
const TEMPERATURE_LAG_MS = 8 * 60_000;
/** Gases and moisture build up or clear over about ten minutes. */
const AIR_LAG_MS = 10 * 60_000;
/** Slow wander of the indoor temperature around its equilibrium (°C, and how fast). */
const WANDER_C = 0.25;
const WANDER_LAG_MS = 10 * 60_000;
/** Counters are integrated in steps of at most this, so the light schedule is followed. */
const INTEGRATION_STEP_MS = 5 * 60_000;
const MAX_INTEGRATION_STEPS = 288;
/** Live weight of a full house (kg): about 25,000 broilers at 2.8 kg. */
const FULL_HOUSE_KG = 70_000;
export const PROBE_COUNT = 4;
/** The controllers' sentinel −999: the probe is not connected. */
export const NOT_CONNECTED = -999;
/** Birds die faster while a house overheats. */
const HEAT_MORTALITY_FACTOR = 4;
/** Run mode 99 (src/contract/domain.ts): an empty house, kept frost-free between flocks. */
export const EMPTY_HOUSE_MODE = 99;
const EMPTY_HOUSE_MIN_C = 5;

/** What the model needs of a demo gateway. */
export type SimulatedHouse = Pick<
  DemoGateway,
  | 'networkId'
  | 'typeKey'
  | 'breed'
  | 'placedOn'
  | 'ageAtPlacement'
  | 'headCount'
  | 'latitude'
  | 'longitude'
  | 'feedBin'
  | 'story'
>;

export interface TelemetryReading {
  ts: number;
  seq: number;
  metrics: Record<string, number>;
  mode?: number;
  devices?: Record<string, DeviceReading>;
}

export interface HouseStep {
  message: TelemetryReading;
  /** Controller alarms that started or ended at this step (topic `event`). */
  events: GatewayEventMessage[];
  /** True while an offline fault keeps the gateway off the network. */
  offline: boolean;
  faults: ActiveFaults;
}

/** One flock's stay in the house; the house's own (open) flock has `closedMs` null. */
export interface FlockPeriod {
  placedOn: string;
  ageAtPlacement: number;
  headCount: number;
  closedMs: number | null;
}

export interface HouseModelOptions {
  house: SimulatedHouse;
  seed: number;
  /** When the simulation starts: the fault calendar counts from here. */
  startMs: number;
  /** This house's place in the fleet and the fleet's size: faults are spread over the fleet. */
  index?: number;
  fleetSize?: number;
  /** The first reading's counters cover this much time (nothing came before it). */
  intervalMs?: number;
  /**
   * The house's flocks, oldest first; between them (and before the first) the house stands
   * empty. Without it the house holds its own flock at any time.
   */
  flocks?: FlockPeriod[];
  /** Before `untilMs` faults come from a calendar counted from `fromMs`, `periodScale` calmer. */
  pastFaults?: { fromMs: number; untilMs: number; periodScale: number };
  /** A restricted water line: the birds drink `factor` of their usual water in [fromMs, toMs). */
  waterCut?: { fromMs: number; toMs: number; factor: number };
}

const round = (value: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** Moves `value` towards `target` as a first-order lag over `dt`. */
const relax = (value: number, target: number, dtMs: number, lagMs: number) =>
  target + (value - target) * Math.exp(-dtMs / lagMs);

/**
 * One simulated house: its flock, its controller and its sensors. Deterministic and free of
 * I/O: the same options and the same sequence of `next(time)` calls give the same readings.
 */
export class HouseModel {
  private readonly random: Random;
  private readonly calendar: FaultCalendar;
  private readonly pastCalendar: FaultCalendar | null;
  private readonly flocks: FlockPeriod[];
  /** The flock of the previous step (null: empty house; undefined: no step yet). */
  private flock: FlockPeriod | null | undefined = undefined;
  private readonly kind: 'controller' | 'collector' | 'alarm';
  private readonly probeBias: number[];
  private readonly weatherSeed: number;
  private readonly intervalMs: number;
  private seq = 0;
  private lastTs = 0;
  private indoorC = Number.NaN;
  private wanderC = 0;
  private co2 = 0;
  private nh3 = 0;
  private humidity = 0;
  private level = -100;
  private deaths = 0;
  private eggCarry = 0;
  private readonly alarms: GatewayAlarms;
  /** The house's feed bin, where the demo gave it a level sensor. */
  private readonly bin: SimulatedBin | null;

  constructor(private readonly options: HouseModelOptions) {
    const { house, seed } = options;
    const houseKey = hashString(house.networkId);
    this.random = new Random(mix32(seed, houseKey));
    this.weatherSeed = seed;
    this.calendar = new FaultCalendar(
      seed,
      houseKey,
      options.index ?? 0,
      options.fleetSize ?? 1,
      options.startMs,
    );
    const past = options.pastFaults;
    this.pastCalendar = past
      ? new FaultCalendar(
          seed,
          houseKey,
          options.index ?? 0,
          options.fleetSize ?? 1,
          past.fromMs,
          past.periodScale,
        )
      : null;
    this.flocks = options.flocks ?? [
      {
        placedOn: house.placedOn,
        ageAtPlacement: house.ageAtPlacement,
        headCount: house.headCount,
        closedMs: null,
      },
    ];
    this.kind = isGatewayTypeKey(house.typeKey) ? gatewayKind(house.typeKey) : 'controller';
    this.alarms = new GatewayAlarms(this.kind);
    this.probeBias = Array.from({ length: PROBE_COUNT }, () => (this.random.next() - 0.5) * 1.6);
    this.intervalMs = options.intervalMs ?? 60_000;
    const lateDelivery =
      house.story === 'feedBinLow' ? { atMs: options.startMs, hours: LATE_DELIVERY_HOURS } : null;
    this.bin = house.feedBin
      ? new SimulatedBin(((houseKey >>> 0) % 1000) / 1000, lateDelivery)
      : null;
  }

  get networkId(): string {
    return this.options.house.networkId;
  }

  /** Fault windows of the calm past calendar overlapping [fromMs, toMs): none without one. */
  pastFaultWindows(fromMs: number, toMs: number): FaultWindow[] {
    return this.pastCalendar?.windowsBetween(fromMs, toMs) ?? [];
  }

  /** The flock in the house at `timeMs`, or null while it stands empty. */
  flockAt(timeMs: number): FlockPeriod | null {
    for (let i = this.flocks.length - 1; i >= 0; i -= 1) {
      const flock = this.flocks[i]!;
      if (placedMsOf(flock.placedOn) > timeMs) continue;
      return flock.closedMs === null || timeMs < flock.closedMs ? flock : null;
    }
    // Before its first known flock a house with no timeline still holds that flock (ages clamp
    // at placement), as the live simulator always did.
    return this.options.flocks ? null : this.flocks[0]!;
  }

  /** Birds already lost since placement, as the breed's survival curve says. */
  private deathsAt(flock: FlockPeriod, timeMs: number): number {
    const standard = standardOf(this.options.house.breed);
    const age = ageInDays(flock.placedOn, flock.ageAtPlacement, timeMs);
    const survival =
      targetsAt(standard, age).survivalRate /
      targetsAt(standard, flock.ageAtPlacement).survivalRate;
    return Math.round(flock.headCount * (1 - survival));
  }

  next(nowMs: number): HouseStep {
    const { house } = this.options;
    const ts = Math.max(Math.round(nowMs), this.lastTs + 1);
    const first = this.lastTs === 0;
    const dtMs = first ? this.intervalMs : ts - this.lastTs;
    this.lastTs = ts;
    const standard = standardOf(house.breed);
    const flock = this.flockAt(ts);
    if (flock !== this.flock) {
      // A new placement (or the first step) starts the count; an empty house has no birds.
      this.flock = flock;
      this.deaths = flock ? this.deathsAt(flock, ts) : 0;
      this.eggCarry = 0;
    }
    const age = flock ? ageInDays(flock.placedOn, flock.ageAtPlacement, ts) : 0;
    const targets = targetsAt(standard, age);
    const past = this.options.pastFaults;
    const faults = (
      this.pastCalendar && past && ts < past.untilMs ? this.pastCalendar : this.calendar
    ).activeAt(ts);
    const weather = outdoorWeather(this.weatherSeed, house.latitude, house.longitude, ts);
    const localHour = solarHour(ts, house.longitude);
    const alive = flock ? Math.max(0, flock.headCount - this.deaths) : 0;
    // An empty house is only kept from freezing; nothing in it needs light.
    const targetC = flock ? targets.temperature : Math.max(EMPTY_HOUSE_MIN_C, weather.temperature);

    const control = runController({
      breed: house.breed,
      timeMs: ts,
      localHour,
      lightHours: flock ? targets.lightHours : 0,
      indoorC: first ? targetC : this.indoorC,
      targetC,
      outdoorC: weather.temperature,
      outdoorHumidity: weather.humidity,
      biomass: Math.min(1, (alive * targets.weight) / 1000 / FULL_HOUSE_KG),
      previousLevel: this.level,
      heatRiseC: faults.heatRiseC,
      failedFans: this.kind === 'controller' ? faults.failedFans : 0,
    });
    this.level = control.level;

    // Gases and moisture: produced by the birds and litter, carried out by the fans.
    const litter = !flock
      ? 0.05
      : house.breed === 'broiler'
        ? 0.15 + 0.85 * Math.min(1, age / 42)
        : 0.5;
    const load = flock ? 0.55 + 0.45 * Math.min(1, age / 35) + (control.heaterOn ? 0.15 : 0) : 0.02;
    const vent = control.effectiveVentilation;
    const co2Target = 450 + (3000 * load) / (1 + 0.9 * vent);
    const nh3Target = 2 + (22 * litter) / (1 + 0.8 * vent);
    const humidityTarget =
      targets.humidity +
      15 / (1 + vent) -
      5 +
      (control.padOn ? 15 : 0) +
      0.15 * (weather.humidity - 65);

    if (first) {
      this.indoorC = control.equilibriumC;
      this.co2 = co2Target;
      this.nh3 = nh3Target;
      this.humidity = humidityTarget;
    } else {
      this.indoorC = relax(this.indoorC, control.equilibriumC, dtMs, TEMPERATURE_LAG_MS);
      this.co2 = relax(this.co2, co2Target, dtMs, AIR_LAG_MS);
      this.nh3 = relax(this.nh3, nh3Target, dtMs, AIR_LAG_MS);
      this.humidity = relax(this.humidity, humidityTarget, dtMs, AIR_LAG_MS);
    }
    const decay = Math.exp(-dtMs / WANDER_LAG_MS);
    this.wanderC =
      this.wanderC * decay + WANDER_C * Math.sqrt(1 - decay * decay) * this.random.normal();
    const trueIndoorC = this.indoorC + this.wanderC;

    const metrics: Record<string, number> = {};
    let probeSum = 0;
    let probesConnected = 0;
    for (let p = 1; p <= PROBE_COUNT; p += 1) {
      if (faults.probe === p) {
        metrics[`temperature_${p}`] = NOT_CONNECTED;
        continue;
      }
      const value = trueIndoorC + this.probeBias[p - 1]! + 0.08 * this.random.normal();
      metrics[`temperature_${p}`] = round(clamp(value, -40, 70), 1);
      probeSum += value;
      probesConnected += 1;
    }
    metrics.temperature = round(clamp(probeSum / probesConnected, -40, 70), 1);
    metrics.temperature_outdoor = round(weather.temperature + 0.1 * this.random.normal(), 1);
    metrics.temperature_target = round(targetC, 1);
    metrics.humidity = round(clamp(this.humidity + 1.2 * this.random.normal(), 25, 98), 1);
    metrics.co2 = Math.round(clamp(this.co2 * (1 + 0.02 * this.random.normal()), 420, 6000));
    metrics.nh3 = round(clamp(this.nh3 + 0.3 * this.random.normal(), 0.5, 60), 1);
    metrics.pressure = round(clamp(-(5 + 3.3 * vent) + 0.6 * this.random.normal(), -40, -5), 1);
    metrics.ventilation_level = control.level;
    metrics.airflow = control.airflowM3h;
    metrics.wind_speed = round(
      control.mode === 13 ? 0.45 * control.fansRunning : 0.1 + 0.04 * vent,
      2,
    );
    metrics.light = control.lightsOn
      ? Math.round(targets.lightIntensity * (1 + 0.03 * this.random.normal()))
      : 0;
    this.addCounters(metrics, ts, dtMs, age, alive, trueIndoorC - targetC, faults);
    metrics.power = round((control.powerKw * dtMs) / HOUR_MS, 3);

    const message: TelemetryReading = { ts, seq: this.seq, metrics };
    this.seq += 1;
    if (this.kind === 'controller') {
      message.mode = flock ? control.mode : EMPTY_HOUSE_MODE;
      message.devices = control.devices;
    }
    const events = this.alarms.update(ts, faults, trueIndoorC - targetC);
    return { message, events, offline: faults.offline, faults };
  }

  /** Water, feed, deaths, eggs as amounts since the previous reading; alive after deaths. */
  private addCounters(
    metrics: Record<string, number>,
    ts: number,
    dtMs: number,
    startAge: number,
    alive: number,
    overshootC: number,
    faults: ActiveFaults,
  ): void {
    const { house } = this.options;
    const standard = standardOf(house.breed);
    const flock = this.flock ?? null;
    if (!flock) {
      // Nobody eats, drinks, dies or lays in an empty house.
      Object.assign(metrics, { water: 0, feed: 0, deaths: 0, alive: 0 });
      return;
    }
    const steps = Math.min(MAX_INTEGRATION_STEPS, Math.ceil(dtMs / INTEGRATION_STEP_MS));
    const stepMs = dtMs / steps;
    let water = 0;
    let feed = 0;
    let eggs = 0;
    let targets: Targets = targetsAt(standard, startAge);
    for (let i = 0; i < steps; i += 1) {
      const mid = ts - dtMs + (i + 0.5) * stepMs;
      targets = targetsAt(standard, ageInDays(flock.placedOn, flock.ageAtPlacement, mid));
      const hour = solarHour(mid, house.longitude);
      const intake = (intakeFactor(hour, targets.lightHours) * stepMs) / DAY_MS;
      const cut = this.options.waterCut;
      const drinks = cut && mid >= cut.fromMs && mid < cut.toMs ? cut.factor : 1;
      water += (alive * targets.waterPerHead * intake * drinks) / 1000;
      feed += (alive * targets.feedPerHead * intake) / 1000;
      eggs += (alive * (targets.layingRate / 100) * layingFactor(hour) * stepMs) / DAY_MS;
    }
    // Birds drink more when the house is hot.
    water *= 1 + 0.04 * Math.max(0, overshootC);
    metrics.water = round(Math.max(0, water * (1 + 0.03 * this.random.normal())), 2);
    metrics.feed = round(Math.max(0, feed * (1 + 0.03 * this.random.normal())), 2);
    if (this.bin)
      metrics[FEED_BIN_CODE] = this.bin.take(
        metrics.feed,
        dtMs,
        ts,
        (alive * targets.feedPerHead) / 1000 / DAY_MS,
      );

    const mortality =
      dailyMortality(standard, startAge) * (faults.heatRiseC > 0 ? HEAT_MORTALITY_FACTOR : 1);
    const died = Math.min(alive, this.random.poisson((alive * mortality * dtMs) / DAY_MS));
    this.deaths += died;
    metrics.deaths = died;
    metrics.alive = alive - died;

    if (house.breed === 'layer' && targets.layingRate > 0) {
      this.eggCarry += Math.max(0, eggs * (1 + 0.03 * this.random.normal()));
      const laid = Math.floor(this.eggCarry);
      this.eggCarry -= laid;
      metrics.eggs = laid;
    }
  }
}

/** One model per gateway, the fleet sharing one seed and one fault calendar. */
export function createFleet(
  houses: readonly SimulatedHouse[],
  seed: number,
  startMs: number,
  intervalMs?: number,
): HouseModel[] {
  return houses.map(
    (house, index) =>
      new HouseModel({ house, seed, startMs, index, fleetSize: houses.length, intervalMs }),
  );
}
