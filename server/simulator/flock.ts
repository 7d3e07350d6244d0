import { BROILER, LAYER, type BreedStandard, type StandardRow } from '../demo/breedStandards';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Lights come on at 4 am local time and stay on for the breed's light hours. */
const LIGHTS_ON_HOUR = 4;

export type BreedKind = 'broiler' | 'layer';

/** The breed's targets at an age, every field interpolated linearly between table rows. */
export interface Targets {
  temperature: number;
  humidity: number;
  co2: number;
  lightHours: number;
  lightIntensity: number;
  /** grams per bird per day */
  waterPerHead: number;
  feedPerHead: number;
  /** grams */
  weight: number;
  /** percent of hens laying per day; 0 before laying age and for broilers */
  layingRate: number;
  /** percent of the placed flock alive */
  survivalRate: number;
}

export function standardOf(breed: BreedKind): BreedStandard {
  return breed === 'broiler' ? BROILER : LAYER;
}

const placedCache = new Map<string, number>();

/** Midnight UTC of a placement date, parsed once: months of past ask it millions of times. */
export function placedMsOf(placedOn: string): number {
  let ms = placedCache.get(placedOn);
  if (ms === undefined) placedCache.set(placedOn, (ms = Date.parse(`${placedOn}T00:00:00Z`)));
  return ms;
}

/** Flock age in (fractional) days at `timeMs`. */
export function ageInDays(placedOn: string, ageAtPlacement: number, timeMs: number): number {
  const placed = placedMsOf(placedOn);
  return Math.max(0, ageAtPlacement + (timeMs - placed) / DAY_MS);
}

function rowValues(row: StandardRow): Targets {
  return {
    temperature: row.temperature,
    humidity: row.humidity,
    co2: row.co2,
    lightHours: row.lightHours,
    lightIntensity: row.lightIntensity,
    waterPerHead: row.waterPerHead,
    feedPerHead: row.feedPerHead,
    weight: row.weight,
    // Rows before laying age carry no laying rate: none is zero, so the start of lay ramps up.
    layingRate: row.layingRate ?? 0,
    survivalRate: row.survivalRate,
  };
}

const TARGET_KEYS: ReadonlyArray<keyof Targets> = [
  'temperature',
  'humidity',
  'co2',
  'lightHours',
  'lightIntensity',
  'waterPerHead',
  'feedPerHead',
  'weight',
  'layingRate',
  'survivalRate',
];
/** Each standard's rows as targets, made once: the simulator asks for targets every step. */
const rowTargets = new WeakMap<BreedStandard, Targets[]>();

/** Targets at an age; before the first row and past the last one the end row holds. */
export function targetsAt(standard: BreedStandard, age: number): Targets {
  const rows = standard.rows;
  let values = rowTargets.get(standard);
  if (!values) rowTargets.set(standard, (values = rows.map(rowValues)));
  const first = rows[0];
  if (!first) throw new Error(`breed ${standard.code} has no rows`);
  if (age <= first.ageDay) return { ...values[0]! };
  for (let i = 1; i < rows.length; i += 1) {
    const upper = rows[i]!;
    if (age <= upper.ageDay) {
      const lower = rows[i - 1]!;
      const f = (age - lower.ageDay) / (upper.ageDay - lower.ageDay);
      const a = values[i - 1]!;
      const b = values[i]!;
      const mixed = {} as Targets;
      for (const key of TARGET_KEYS) mixed[key] = a[key] + (b[key] - a[key]) * f;
      return mixed;
    }
  }
  return { ...values[values.length - 1]! };
}

/** Daily mortality (fraction of the living flock per day) from the slope of the survival curve. */
export function dailyMortality(standard: BreedStandard, age: number): number {
  const now = targetsAt(standard, age).survivalRate;
  const later = targetsAt(standard, age + 1).survivalRate;
  const slope = Math.max(0, now - later);
  // Past the end of the table the curve is flat; birds still die at the last known pace.
  const lastTwo = standard.rows.slice(-2);
  const tail =
    lastTwo.length === 2
      ? Math.max(0, lastTwo[0]!.survivalRate - lastTwo[1]!.survivalRate) /
        (lastTwo[1]!.ageDay - lastTwo[0]!.ageDay)
      : 0;
  return (slope > 0 ? slope : tail) / Math.max(1, now);
}

/** Hours since the lights came on today (0–24), local time. */
export function hoursSinceLightsOn(localHour: number): number {
  return (localHour - LIGHTS_ON_HOUR + 24) % 24;
}

export function lightsOn(localHour: number, lightHours: number): boolean {
  return hoursSinceLightsOn(localHour) < lightHours;
}

/**
 * How much of the day's eating and drinking happens now, as a multiple of the daily average:
 * birds eat and drink when the lights are on (97 %), barely in the dark.
 */
export function intakeFactor(localHour: number, lightHours: number): number {
  if (lightHours >= 24) return 1;
  return lightsOn(localHour, lightHours)
    ? (0.97 * 24) / lightHours
    : (0.03 * 24) / (24 - lightHours);
}

/**
 * When eggs are laid, as a multiple of the daily average: most in the first hours after the
 * lights come on (a triangle from 0 to 8 h, peaking at 3 h; its area is one day's lay).
 */
export function layingFactor(localHour: number): number {
  const h = hoursSinceLightsOn(localHour);
  const peak = 3;
  const end = 8;
  if (h >= end) return 0;
  const height = (2 * 24) / end;
  return h <= peak ? (height * h) / peak : (height * (end - h)) / (end - peak);
}
