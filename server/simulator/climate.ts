import { normalHash } from './random';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const YEAR_DAYS = 365.25;
/** Day of the year of the coldest monthly mean in the northern hemisphere (mid January). */
const COLDEST_DAY_OF_YEAR = 16;
/** Daily minimum around 5 am and maximum around 3 pm, local solar time. */
const COLDEST_HOUR = 5;
const WARMEST_HOUR = 15;
/** Weather fronts: slow swings over days, and smaller ones over hours. */
const FRONT_SPACING_MS = 3 * DAY_MS;
const FRONT_SPREAD_C = 2.5;
const SHOWER_SPACING_MS = 6 * HOUR_MS;
const SHOWER_SPREAD_C = 0.8;

/**
 * Local solar time in hours (0–24) at a longitude: 15° of longitude per hour from UTC. Good
 * enough for the sun's daily cycle; farm schedules in China run on UTC+8 clock time, which is
 * within about an hour of this across the demo's provinces.
 */
export function solarHour(timeMs: number, longitude: number): number {
  const hours = timeMs / HOUR_MS + longitude / 15;
  return ((hours % 24) + 24) % 24;
}

/** Day of the year (0–365) in UTC. */
export function dayOfYear(timeMs: number): number {
  const date = new Date(timeMs);
  return (timeMs - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY_MS;
}

/**
 * Monthly mean temperature by latitude: fitted by hand to Chinese stations (Guangzhou 23° N:
 * January 13 °C, July 29 °C; Weifang 37° N: −3 / 26; Tieling 42° N: −12 / 24). Mirrored for
 * the southern hemisphere.
 */
export function seasonalMean(latitude: number, timeMs: number): number {
  const lat = Math.abs(latitude);
  const january = 13.5 - 1.3 * (lat - 23);
  const july = 29.5 - 0.25 * (lat - 23);
  const shift = latitude < 0 ? YEAR_DAYS / 2 : 0;
  const phase = (2 * Math.PI * (dayOfYear(timeMs) - COLDEST_DAY_OF_YEAR - shift)) / YEAR_DAYS;
  return (january + july) / 2 - ((july - january) / 2) * Math.cos(phase);
}

/**
 * The shape of a day, −1 at 5 am to +1 at 3 pm solar time: a half cosine rising over 10 hours
 * and falling over the other 14, as air warms fast after sunrise and cools slowly at night.
 */
export function dailyShape(hour: number): number {
  const sinceColdest = (hour - COLDEST_HOUR + 24) % 24;
  const rise = WARMEST_HOUR - COLDEST_HOUR;
  if (sinceColdest <= rise) return -Math.cos((Math.PI * sinceColdest) / rise);
  return Math.cos((Math.PI * (sinceColdest - rise)) / (24 - rise));
}

/** Smoothly interpolated noise at `timeMs`: one seeded anchor every `spacingMs`. */
function smoothNoise(seed: number, place: number, timeMs: number, spacingMs: number): number {
  const position = timeMs / spacingMs;
  const k = Math.floor(position);
  const f = position - k;
  const s = f * f * (3 - 2 * f);
  const a = normalHash(seed, place, spacingMs, k);
  const b = normalHash(seed, place, spacingMs, k + 1);
  return a + (b - a) * s;
}

export interface OutdoorWeather {
  /** °C */
  temperature: number;
  /** Relative humidity, % */
  humidity: number;
}

/**
 * Outdoor weather at a place and time: seasonal mean by latitude, a daily cycle by solar time
 * (a wider swing inland in the north), and seeded fronts shared by every house of a farm.
 */
export function outdoorWeather(
  seed: number,
  latitude: number,
  longitude: number,
  timeMs: number,
): OutdoorWeather {
  const place = Math.round(latitude * 100) * 100_000 + Math.round(longitude * 100);
  const hour = solarHour(timeMs, longitude);
  const swing = Math.min(6, Math.max(3, 3 + 0.12 * (Math.abs(latitude) - 20)));
  const temperature =
    seasonalMean(latitude, timeMs) +
    swing * dailyShape(hour) +
    FRONT_SPREAD_C * smoothNoise(seed, place, timeMs, FRONT_SPACING_MS) +
    SHOWER_SPREAD_C * smoothNoise(seed, place, timeMs, SHOWER_SPACING_MS);
  // Humid south, drier north; air is most humid at dawn when it is coldest.
  const base = Math.abs(latitude) < 30 ? 75 : 62;
  const humidity = base - 15 * dailyShape(hour) + 6 * smoothNoise(seed + 1, place, timeMs, DAY_MS);
  return {
    temperature: Math.min(55, Math.max(-45, temperature)),
    humidity: Math.min(100, Math.max(15, humidity)),
  };
}

/**
 * Wet-bulb temperature (Stull 2011, valid for 5–99 % RH and −20…50 °C): how far an evaporative
 * cooling pad can bring the air down.
 */
export function wetBulb(temperature: number, humidity: number): number {
  const rh = Math.min(99, Math.max(5, humidity));
  return (
    temperature * Math.atan(0.151977 * Math.sqrt(rh + 8.313659)) +
    Math.atan(temperature + rh) -
    Math.atan(rh - 1.676331) +
    0.00391838 * rh ** 1.5 * Math.atan(0.023101 * rh) -
    4.686035
  );
}
