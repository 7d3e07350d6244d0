import { wetBulb } from './climate';
import { hoursSinceLightsOn, lightsOn, type BreedKind } from './flock';

/** Fans per simulated house: fan_1 … fan_6. */
export const FAN_COUNT = 6;
/** One 50-inch exhaust fan moves about 36,000 m³/h against 25 Pa. */
const FAN_AIRFLOW_M3H = 36_000;
const FAN_KW = 1.1;
const HEATER_KW = 2;
const PAD_PUMP_KW = 0.75;
const FEEDER_KW = 0.75;
/** Controller, feed lines, egg belts: what a house draws with nothing else running. */
const BASE_KW: Record<BreedKind, number> = { broiler: 1.2, layer: 3 };
const LIGHTS_KW: Record<BreedKind, number> = { broiler: 1.5, layer: 2.5 };
/** Birds' body heat warms still air by up to this much over outdoor air in a full house. */
const BIRD_HEAT_MAX_C = 18;
const BUILDING_HEAT_C = 4;
/** Each ventilation level removes about this much excess heat (°C over target). */
const HEAT_PER_LEVEL_C = 2.2;
/** Heaters can lift a house this far above its free-running temperature. */
const HEATER_CAPACITY_C = 45;
/** A level changes only once the wanted level is this far off: no hunting between steps. */
const LEVEL_HYSTERESIS = 0.75;
/** Minimum ventilation: one fan runs 1 minute in every 5 (a timer, as controllers do). */
const MIN_VENT_CYCLE_MS = 5 * 60_000;
const MIN_VENT_ON_MS = 60_000;
/** Feeders run 10 minutes every 2 hours while the lights are on. */
const FEED_RUN_EVERY_H = 2;
const FEED_RUN_H = 10 / 60;
/** A cooling pad brings air 80 % of the way to its wet-bulb temperature. */
const PAD_EFFICIENCY = 0.8;
/** Pads run with near-full ventilation once outdoor air is this warm. */
const PAD_ON_ABOVE_C = 24;
const PAD_ON_LEVEL = 8;
/** Air warms by about this much between the inlet and the fans. */
const AIR_PICKUP_C = 1;
/** Heat shortfall (°C below target without heaters) that puts a house in minimum ventilation. */
const MIN_VENT_MODE_BELOW_C = 15;

export type DeviceState = 0 | 1 | 2 | 3;
export interface DeviceReading {
  state: DeviceState;
  opening?: number;
}

export interface ControllerInput {
  breed: BreedKind;
  timeMs: number;
  localHour: number;
  lightHours: number;
  indoorC: number;
  targetC: number;
  outdoorC: number;
  outdoorHumidity: number;
  /** Live weight in the house as a share of a full house (0–1). */
  biomass: number;
  previousLevel: number;
  heatRiseC: number;
  failedFans: number;
}

export interface ControllerOutput {
  level: number;
  /** Run mode code of the controller (see `RUN_MODES` in src/contract). */
  mode: number;
  heaterOn: boolean;
  padOn: boolean;
  lightsOn: boolean;
  fansRunning: number;
  /** Ventilation actually achieved, 0–10: minimum ventilation averages a little above 0. */
  effectiveVentilation: number;
  airflowM3h: number;
  /** Where the indoor temperature heads under this heat balance. */
  equilibriumC: number;
  powerKw: number;
  devices: Record<string, DeviceReading>;
}

/**
 * A house controller in smart mode: heaters when the birds' heat cannot hold the target,
 * ventilation stepping up with the heat to remove, tunnel mode and cooling pads for broilers in
 * heat. Pure: the same input gives the same output.
 */
export function runController(input: ControllerInput): ControllerOutput {
  const freeRunningC = input.outdoorC + BUILDING_HEAT_C + BIRD_HEAT_MAX_C * input.biomass;
  const heatC = freeRunningC - input.targetC;
  const heating = heatC < 0;

  // The controller sees its own indoor temperature: when a house overheats it goes to full.
  const overshootC = input.indoorC - input.targetC;
  const heaterOn = heating && overshootC < 1;
  const wanted = Math.max(heatC / HEAT_PER_LEVEL_C, overshootC > 1 ? (overshootC - 0.5) * 4 : 0);
  const clampedWanted = Math.min(10, Math.max(0, wanted));
  const level =
    Math.abs(clampedWanted - input.previousLevel) >= LEVEL_HYSTERESIS
      ? Math.round(clampedWanted)
      : input.previousLevel;

  const tunnel = input.breed === 'broiler' && level >= 8 && input.outdoorC > input.targetC - 4;
  const padOn = level >= PAD_ON_LEVEL && input.outdoorC > PAD_ON_ABOVE_C;
  // Smart mode heats and ventilates by itself; only a house far below its target in cold
  // weather is switched to minimum ventilation.
  const mode = heatC < -MIN_VENT_MODE_BELOW_C ? 10 : tunnel ? 13 : 1;

  const minVentOn = input.timeMs % MIN_VENT_CYCLE_MS < MIN_VENT_ON_MS;
  const wantedFans = level === 0 ? (minVentOn ? 1 : 0) : Math.ceil((level * FAN_COUNT) / 10);
  const failed = Math.min(FAN_COUNT, input.failedFans);
  const fansRunning = Math.min(wantedFans, FAN_COUNT - failed);
  const effectiveVentilation =
    level === 0 ? 0.3 : (Math.min(wantedFans, FAN_COUNT - failed) * 10) / FAN_COUNT;

  let equilibriumC: number;
  if (heating) {
    equilibriumC = input.targetC - Math.max(0, -heatC - HEATER_CAPACITY_C) * 0.5;
  } else {
    const coolest = padOn
      ? input.outdoorC -
        PAD_EFFICIENCY * (input.outdoorC - wetBulb(input.outdoorC, input.outdoorHumidity))
      : input.outdoorC;
    equilibriumC = input.targetC + 0.3 + Math.max(0, coolest + AIR_PICKUP_C - input.targetC);
  }
  equilibriumC += input.heatRiseC;

  const lights = lightsOn(input.localHour, input.lightHours);
  const sinceLights = hoursSinceLightsOn(input.localHour);
  const feederOn = lights && sinceLights % FEED_RUN_EVERY_H < FEED_RUN_H;
  const inletOpening = level === 0 ? (minVentOn ? 10 : 0) : Math.min(100, 10 + 9 * level);

  const devices: Record<string, DeviceReading> = {};
  for (let n = 1; n <= FAN_COUNT; n += 1) {
    const state: DeviceState = n <= failed ? 3 : n <= failed + fansRunning ? 1 : 0;
    devices[`fan_${n}`] = { state };
  }
  devices.inlet_1 = { state: inletOpening > 0 ? 1 : 0, opening: inletOpening };
  devices.heater_1 = { state: heaterOn ? 1 : 0 };
  devices.cooling_pad_1 = { state: padOn ? 1 : 0 };
  devices.light_1 = { state: lights ? 1 : 0 };
  devices.feeder_1 = { state: feederOn ? 1 : 0 };

  const powerKw =
    BASE_KW[input.breed] +
    (lights ? LIGHTS_KW[input.breed] : 0) +
    fansRunning * FAN_KW +
    (heaterOn ? HEATER_KW : 0) +
    (padOn ? PAD_PUMP_KW : 0) +
    (feederOn ? FEEDER_KW : 0);

  return {
    level,
    mode,
    heaterOn,
    padOn,
    lightsOn: lights,
    fansRunning,
    effectiveVentilation,
    airflowM3h: fansRunning * FAN_AIRFLOW_M3H,
    equilibriumC,
    powerKw,
    devices,
  };
}
