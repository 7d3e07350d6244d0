/** How metrics are grouped on screens and in the catalogue. */
export const METRIC_GROUPS = ['climate', 'air', 'ventilation', 'usage', 'production'] as const;
export type MetricGroup = (typeof METRIC_GROUPS)[number];

export interface MetricDefinition {
  key: string;
  unit: string;
  label: { en: string; zh: string };
  /** Physically possible range: a reading outside it is refused, not stored. */
  min: number;
  max: number;
  group: MetricGroup;
  /**
   * How a metric adds up over an hour or a day: `level` (temperature: min/avg/max), or
   * `counter` (water, feed, power, deaths, eggs: each reading is the amount since the last one,
   * so the rollup's sum is the amount in the bucket).
   */
  kind: 'level' | 'counter';
}

/** Temperature probes per house: temperature_1 … temperature_8. */
export const TEMPERATURE_PROBES = 8;

const probes: MetricDefinition[] = Array.from({ length: TEMPERATURE_PROBES }, (_, i) => ({
  key: `temperature_${i + 1}`,
  unit: '℃',
  label: { en: `Temperature ${i + 1}`, zh: `温度${i + 1}` },
  min: -40,
  max: 70,
  group: 'climate',
  kind: 'level',
}));

/**
 * The metric catalogue: every key a gateway may send, named once. Keys are stable snake_case
 * English; the server's storage columns are generated from this list.
 */
export const METRICS: readonly MetricDefinition[] = [
  {
    key: 'temperature',
    unit: '℃',
    label: { en: 'Indoor temperature', zh: '栏舍内温度' },
    min: -40,
    max: 70,
    group: 'climate',
    kind: 'level',
  },
  ...probes,
  {
    key: 'temperature_outdoor',
    unit: '℃',
    label: { en: 'Outdoor temperature', zh: '室外温度' },
    min: -50,
    max: 60,
    group: 'climate',
    kind: 'level',
  },
  {
    key: 'temperature_target',
    unit: '℃',
    label: { en: 'Target temperature', zh: '目标温度' },
    min: -10,
    max: 45,
    group: 'climate',
    kind: 'level',
  },
  {
    key: 'humidity',
    unit: '%',
    label: { en: 'Humidity', zh: '湿度' },
    min: 0,
    max: 100,
    group: 'climate',
    kind: 'level',
  },
  {
    key: 'co2',
    unit: 'ppm',
    label: { en: 'CO2', zh: '二氧化碳' },
    min: 0,
    max: 20_000,
    group: 'air',
    kind: 'level',
  },
  {
    key: 'nh3',
    unit: 'ppm',
    label: { en: 'Ammonia (NH3)', zh: '氨气' },
    min: 0,
    max: 500,
    group: 'air',
    kind: 'level',
  },
  {
    key: 'pressure',
    unit: 'Pa',
    label: { en: 'Static pressure', zh: '静压' },
    min: -500,
    max: 500,
    group: 'ventilation',
    kind: 'level',
  },
  {
    key: 'wind_speed',
    unit: 'm/s',
    label: { en: 'Wind speed', zh: '风速' },
    min: 0,
    max: 30,
    group: 'ventilation',
    kind: 'level',
  },
  {
    key: 'airflow',
    unit: 'm³/h',
    label: { en: 'Airflow', zh: '通风量' },
    min: 0,
    max: 5_000_000,
    group: 'ventilation',
    kind: 'level',
  },
  // A negative ventilation level is the controller's "no level" and is shown as ---.
  {
    key: 'ventilation_level',
    unit: '',
    label: { en: 'Ventilation level', zh: '通风等级' },
    min: -1,
    max: 50,
    group: 'ventilation',
    kind: 'level',
  },
  {
    key: 'light',
    unit: 'lx',
    label: { en: 'Light', zh: '光照' },
    min: 0,
    max: 100_000,
    group: 'climate',
    kind: 'level',
  },
  {
    key: 'water',
    // Litres, as Data Input and the daily records count water: one unit on every page.
    unit: 'L',
    label: { en: 'Water', zh: '饮水量' },
    min: 0,
    max: 100_000,
    group: 'usage',
    kind: 'counter',
  },
  {
    key: 'feed',
    unit: 'kg',
    label: { en: 'Feed', zh: '耗料量' },
    min: 0,
    max: 100_000,
    group: 'usage',
    kind: 'counter',
  },
  {
    key: 'power',
    unit: 'kWh',
    label: { en: 'Electricity', zh: '用电量' },
    min: 0,
    max: 100_000,
    group: 'usage',
    kind: 'counter',
  },
  {
    key: 'alive',
    unit: '',
    label: { en: 'Alive', zh: '存栏数' },
    min: 0,
    max: 2_000_000,
    group: 'production',
    kind: 'level',
  },
  {
    key: 'deaths',
    unit: '',
    label: { en: 'Deaths', zh: '死淘数' },
    min: 0,
    max: 100_000,
    group: 'production',
    kind: 'counter',
  },
  {
    key: 'eggs',
    unit: '',
    label: { en: 'Eggs', zh: '产蛋数' },
    min: 0,
    max: 2_000_000,
    group: 'production',
    kind: 'counter',
  },
];

export type MetricKey = string;

export const METRIC_BY_KEY: ReadonlyMap<string, MetricDefinition> = new Map(
  METRICS.map((m) => [m.key, m]),
);

/** A metric's name in a language; a key outside the catalogue as it is. */
export const metricLabel = (key: string, language: 'en' | 'zh'): string =>
  METRIC_BY_KEY.get(key)?.label[language] ?? key;

/** Stable small numbers for storage; append only, never renumber. */
export const METRIC_KEYS: readonly string[] = METRICS.map((m) => m.key);

/**
 * Sentinel values: a value ≤ −600 is not a measurement. They are stored as what
 * they mean and never averaged into trends or rollups.
 */
export const SENTINEL_LIMIT = -600;
export const SENTINELS = {
  '-999': 'notConnected',
  '-998': 'notConfigured',
  '-888': 'notEntered',
} as const;
export type SentinelKind = 'notConnected' | 'notConfigured' | 'notEntered' | 'error';

export function sentinelOf(value: number): SentinelKind | null {
  if (value > SENTINEL_LIMIT) return null;
  return (SENTINELS as Record<string, SentinelKind>)[String(value)] ?? 'error';
}

/** Controller (device) types; a device key is `<type>_<n>`, e.g. `fan_3`. */
export const DEVICE_TYPES = [
  'variable_fan',
  'inverter_fan',
  'fan',
  'cooling_pad',
  'inlet',
  'light',
  'heater',
  'sprayer',
  'feed_hopper',
  'feeder',
  'manure_scraper',
] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Device states: 0 off, 1 on (forward), 2 on (reverse), 3 error. */
export const DEVICE_STATES = [0, 1, 2, 3] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

const DEVICE_KEY = new RegExp(`^(${DEVICE_TYPES.join('|')})_([1-9]\\d?)$`);

/** Whether `key` names a device (`fan_1` …), without the match `deviceTypeOf` builds. */
export function isDeviceKey(key: string): boolean {
  return DEVICE_KEY.test(key);
}

export function deviceTypeOf(key: string): DeviceType | null {
  const match = DEVICE_KEY.exec(key);
  return match ? (match[1] as DeviceType) : null;
}
