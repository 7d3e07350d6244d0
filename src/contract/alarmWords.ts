import type { AlarmCause } from './alarms';
import {
  deviceTypeOf,
  METRIC_BY_KEY,
  metricLabel,
  type DeviceType,
  type SentinelKind,
} from './metrics';

/**
 * The one place that turns what a gateway sends as codes (device keys, device states, sentinel
 * kinds, a controller's own alarm codes) into words in the reader's language. The console's
 * texts are built from these tables, and the server's exports and notifications render with the
 * functions below, so a code reads the same on a page, in a CSV and in a text message.
 */

type Lang = 'en' | 'zh';

export const DEVICE_TYPE_NAMES = {
  en: {
    variable_fan: 'Variable fan',
    inverter_fan: 'Inverter fan',
    fan: 'Fan',
    cooling_pad: 'Cooling pad',
    inlet: 'Inlet',
    light: 'Light',
    heater: 'Heater',
    sprayer: 'Sprayer',
    feed_hopper: 'Feed hopper',
    feeder: 'Feeder',
    manure_scraper: 'Manure scraper',
  },
  zh: {
    variable_fan: '变速风机',
    inverter_fan: '变频风机',
    fan: '风机',
    cooling_pad: '水帘',
    inlet: '小窗/卷帘',
    light: '灯光',
    heater: '加热',
    sprayer: '喷雾',
    feed_hopper: '料塔',
    feeder: '喂料',
    manure_scraper: '刮粪机',
  },
} as const satisfies Record<Lang, Record<DeviceType, string>>;

/** Device states as the gateway contract numbers them: 0 off, 1 on, 2 reverse, 3 error. */
export const DEVICE_STATE_NAMES = {
  en: { s0: 'Off', s1: 'On', s2: 'Reverse', s3: 'Error' },
  zh: { s0: '关', s1: '开', s2: '反转', s3: '故障' },
} as const;

export const SENTINEL_NAMES = {
  en: {
    notConnected: 'Not connected',
    notConfigured: 'Not configured',
    notEntered: 'Not entered',
    error: 'Error',
  },
  zh: { notConnected: '未接入', notConfigured: '未配置', notEntered: '未录入', error: '异常' },
} as const satisfies Record<Lang, Record<SentinelKind, string>>;

/** The alarms a controller raises itself, by the code it sends (`{{n}}`: the probe's number). */
export const CONTROLLER_ALARM_NAMES = {
  en: {
    probeDisconnected: 'Temperature probe {{n}} not connected',
    fanFailure: 'Fan failure',
    highTemperature: 'Indoor temperature over the alarm limit',
  },
  zh: {
    probeDisconnected: '温度探头 {{n}} 未接入',
    fanFailure: '风机故障',
    highTemperature: '栏舍内温度超过报警限值',
  },
} as const;

const WORDS = {
  en: {
    state: (name: string, n: number) => `${name} (state ${n})`,
    sep: ': ',
    unknownCode: (code: string) => `Controller code “${code}” (not in Roost’s list)`,
  },
  zh: {
    state: (name: string, n: number) => `${name}（状态 ${n}）`,
    sep: '：',
    unknownCode: (code: string) => `控制器代码“${code}”（Roost 未收录）`,
  },
} as const;

const langOf = (locale: string): Lang => (locale.startsWith('zh') ? 'zh' : 'en');

/** "Fan 1", "风机 1"; null when `key` names no device. */
export function deviceName(key: string, locale: string): string | null {
  const type = deviceTypeOf(key);
  return type ? `${DEVICE_TYPE_NAMES[langOf(locale)][type]} ${key.split('_').at(-1)}` : null;
}

/** A device state's name; a number outside the contract reads as itself. */
export function deviceStateName(state: number, locale: string): string {
  const names: Record<string, string> = DEVICE_STATE_NAMES[langOf(locale)];
  return names[`s${state}`] ?? `${state}`;
}

export function sentinelName(kind: string, locale: string): string | null {
  const names: Record<string, string> = SENTINEL_NAMES[langOf(locale)];
  return Object.hasOwn(names, kind) ? names[kind]! : null;
}

/** A controller's alarm code in words; null for a code this build does not know. */
export function controllerAlarmName(code: string, locale: string): string | null {
  const names = CONTROLLER_ALARM_NAMES[langOf(locale)];
  const probe = /^probe_(\d+)_disconnected$/.exec(code);
  if (probe) return names.probeDisconnected.replace('{{n}}', `${Number(probe[1])}`);
  if (code === 'fan_failure') return names.fanFailure;
  if (code === 'high_temperature') return names.highTemperature;
  return null;
}

/**
 * A controller's alarm code in words, always: a code this build does not know is said to be a
 * controller's alarm, with the code a service person can look up, never the bare code.
 */
export function controllerAlarmWords(code: string, locale: string): string {
  const lang = langOf(locale);
  return controllerAlarmName(code, lang) ?? WORDS[lang].unknownCode(code);
}

/** What an alarm is about by its subject key: a metric's, a device's or a controller code's name. */
export function subjectName(subject: string, locale: string): string {
  const lang = langOf(locale);
  if (METRIC_BY_KEY.has(subject)) return metricLabel(subject, lang);
  return deviceName(subject, lang) ?? controllerAlarmName(subject, lang) ?? subject;
}

export interface AlarmConcern {
  cause: AlarmCause;
  subject: string | null;
  value: number | null;
  text: string | null;
}

/** Causes whose value is a code, said in words by `alarmConcern`, never printed as a number. */
export const CODED_VALUE_CAUSES: ReadonlySet<AlarmCause> = new Set<AlarmCause>(['deviceError']);

/**
 * What an alarm concerns, in words, without a measured value: a known controller code in the
 * reader's language, a sensor fault's metric and what its sentinel means, a device error's
 * device and what its state means, else the text a person typed (an alarm input's content) or
 * the controller sent, else the subject's name.
 */
export function alarmConcern(alarm: AlarmConcern, locale: string): string {
  const lang = langOf(locale);
  const subject = alarm.subject ? subjectName(alarm.subject, lang) : '';
  if (alarm.cause === 'controllerAlarm' && alarm.subject) {
    const known = controllerAlarmName(alarm.subject, lang);
    if (known) return known;
    // The controller's own text where it sent one; else the code, said to be one.
    return alarm.text ?? WORDS[lang].unknownCode(alarm.subject);
  }
  if (alarm.cause === 'sensorFault' && alarm.text) {
    const state = sentinelName(alarm.text, lang);
    if (state) return lang === 'zh' ? `${subject}（${state}）` : `${subject} (${state})`;
  }
  if (alarm.cause === 'deviceError' && alarm.value !== null) {
    const state = WORDS[lang].state(deviceStateName(alarm.value, lang), alarm.value);
    return `${subject}${WORDS[lang].sep}${state}`;
  }
  return alarm.text ?? subject;
}
