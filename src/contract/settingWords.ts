import { PARAM_BY_KEY } from './envcontrol';

/**
 * Saved settings as the operation log records them (the JSON of their keys and values, so a
 * row reads in any language) turned into words: "High temperature 35 ℃ → 33 ℃". The console's
 * log page and the server's CSV both render here, so both read the same.
 */

type Lang = 'en' | 'zh';
type Word = { en: string; zh: string; unit?: string };

/** A house's own alarm limits (houseAlarmLimitsSchema), by field. */
const ALARM_LIMIT_WORDS: Record<string, Word> = {
  followController: { en: 'Follow the controller’s alarm limits', zh: '采用控制器的报警限值' },
  temperatureBandHigh: { en: 'Temperature above target by', zh: '温度高于目标', unit: '℃' },
  temperatureBandLow: { en: 'Temperature below target by', zh: '温度低于目标', unit: '℃' },
  temperatureHysteresis: { en: 'Temperature hysteresis', zh: '温度回差', unit: '℃' },
  humidityMin: { en: 'Humidity minimum', zh: '湿度下限', unit: '%' },
  humidityMax: { en: 'Humidity maximum', zh: '湿度上限', unit: '%' },
  co2Max: { en: 'CO₂ maximum', zh: '二氧化碳上限', unit: 'ppm' },
  nh3Max: { en: 'NH₃ maximum', zh: '氨气上限', unit: 'ppm' },
  pressureMin: { en: 'Pressure minimum', zh: '压差下限', unit: 'Pa' },
  pressureMax: { en: 'Pressure maximum', zh: '压差上限', unit: 'Pa' },
  minDurationSeconds: { en: 'Raise after', zh: '持续后报警', unit: 's' },
  clearHoldSeconds: { en: 'Clear after', zh: '恢复保持', unit: 's' },
  stuckMinutes: { en: 'Sensor stuck after', zh: '传感器卡滞判定', unit: 'min' },
};

/** Early-warning limits (warningLimitsSchema), by field. */
const WARNING_LIMIT_WORDS: Record<string, Word> = {
  waterDrop: { en: 'Water drop warning', zh: '饮水下降预警' },
  waterDropPct: { en: 'Water down day over day by', zh: '饮水量环比下降', unit: '%' },
  feedOffStandard: { en: 'Feed off standard warning', zh: '采食偏离标准预警' },
  feedOffPct: { en: 'Feed per bird off standard by', zh: '只均采食偏离标准', unit: '%' },
  weightGainSlow: { en: 'Slow gain warning', zh: '增重缓慢预警' },
  gainRatioPct: { en: 'Gain of 48 h at most', zh: '48 小时增重不超过', unit: '%' },
  feedBinLow: { en: 'Feed bin low warning', zh: '料塔低料位预警' },
  feedBinHours: { en: 'Feed bin empty within', zh: '料塔预计排空', unit: 'h' },
};

const SAY = {
  en: { on: 'on', off: 'off', sep: '; ', unknown: (key: string) => `Setting “${key}”` },
  zh: { on: '开', off: '关', sep: '；', unknown: (key: string) => `参数“${key}”` },
} as const;

export type SettingKind = 'alarmLimits' | 'warningLimits' | 'configCommand';

function wordOf(kind: SettingKind, key: string): Word | null {
  if (kind === 'configCommand') {
    const spec = PARAM_BY_KEY.get(key);
    return spec ? { ...spec.label, unit: spec.unit } : null;
  }
  const table = kind === 'alarmLimits' ? ALARM_LIMIT_WORDS : WARNING_LIMIT_WORDS;
  return Object.hasOwn(table, key) ? table[key]! : null;
}

function valueText(value: unknown, unit: string | undefined, lang: Lang): string {
  if (typeof value === 'boolean') return value ? SAY[lang].on : SAY[lang].off;
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'number' || typeof value === 'string' ? `${value}` : '';
  return unit ? `${text} ${unit}` : text;
}

const parse = (json: string | undefined): Record<string, unknown> | null => {
  if (json === undefined || json === '') return null;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
};

/**
 * Saved settings in words, one "name value" per key, with the value before ("name old → new")
 * where the log recorded it and it differs. JSON that is not an object (an older build's row)
 * reads as recorded; a key this build does not know is named as a setting with its key.
 */
export function settingsInWords(
  kind: SettingKind,
  values: string,
  before: string | undefined,
  locale: string,
): string {
  const lang: Lang = locale.startsWith('zh') ? 'zh' : 'en';
  const now = parse(values);
  if (!now) return values;
  const then = parse(before) ?? {};
  const parts = Object.entries(now).map(([key, value]) => {
    const word = wordOf(kind, key);
    const name = word ? word[lang] : SAY[lang].unknown(key);
    const after = valueText(value, word?.unit, lang);
    const had = Object.hasOwn(then, key) && then[key] !== value;
    return had
      ? `${name} ${valueText(then[key], word?.unit, lang)} → ${after}`
      : `${name} ${after}`;
  });
  return parts.join(SAY[lang].sep);
}
