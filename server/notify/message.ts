import { ALARM_CAUSE_NAMES, type Alarm, type AlarmCause } from '../../src/contract/alarms';
import { METRIC_BY_KEY } from '../../src/contract/metrics';
import { alarmConcern, CODED_VALUE_CAUSES } from '../../src/contract/alarmWords';
import { measure } from '../../src/i18n/numbers';
import type { Notification } from '../alarms/channels';

export type NotifyLocale = 'en' | 'zh';

const SEVERITY_NAMES = {
  en: { critical: 'Critical', major: 'Major', minor: 'Minor' },
  zh: { critical: '紧急', major: '重要', minor: '一般' },
} as const;

const WORDS = {
  en: { limit: 'limit', raised: 'raised', ack: 'Acknowledge' },
  zh: { limit: '限值', raised: '发生于', ack: '确认' },
} as const;

/** The pieces providers with templates (Alibaba Cloud, Tencent Cloud) fill their variables from. */
export interface AlarmParts {
  severity: string;
  farm: string;
  house: string;
  cause: string;
  /** The reading and its limit, or the controller's text; empty when there is neither. */
  value: string;
  time: string;
}

/** `2025-01-10 15:00` in the installation's zone: one form every reader reads alike. */
function timeOf(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

/**
 * The unit of an early warning's value and limit (server/production/warningRules.ts): water
 * drop, feed off standard and weight gain are percentages, the feed bin's time left is hours.
 */
const WARNING_UNITS: Partial<Record<AlarmCause, string>> = {
  waterDrop: '%',
  feedOffStandard: '%',
  weightGainSlow: '%',
  feedBinLow: 'h',
};

/** What an alarm's value and limit are measured in: the metric's unit, or the warning's. */
export function alarmUnit(alarm: Pick<Alarm, 'cause' | 'subject'>): string {
  const metric = alarm.subject === null ? undefined : METRIC_BY_KEY.get(alarm.subject);
  return metric?.unit ?? WARNING_UNITS[alarm.cause] ?? '';
}

/**
 * The reading and its limit as every message writes them, both with the unit and the
 * precision of the one number formatter: "38.5 ℃ (limit 25.4 ℃)", "38.5 ℃（限值 25.4 ℃）".
 */
export function valueText(
  alarm: Pick<Alarm, 'cause' | 'subject' | 'value' | 'limit'>,
  locale: NotifyLocale,
): string {
  if (alarm.value === null) return '';
  const unit = alarmUnit(alarm);
  const value = measure(alarm.value, unit);
  if (alarm.limit === null) return value;
  const limit = `${WORDS[locale].limit} ${measure(alarm.limit, unit)}`;
  return locale === 'zh' ? `${value}（${limit}）` : `${value} (${limit})`;
}

export function alarmParts(alarm: Alarm, locale: NotifyLocale, timeZone: string): AlarmParts {
  // A measured value with its limit; otherwise (or a coded value, a device's state) what the
  // alarm concerns in words, never the controller's code or English text.
  const value =
    alarm.value !== null && !CODED_VALUE_CAUSES.has(alarm.cause)
      ? valueText(alarm, locale)
      : alarm.text !== null || alarm.value !== null || alarm.cause === 'controllerAlarm'
        ? alarmConcern(alarm, locale)
        : '';
  return {
    severity: SEVERITY_NAMES[locale][alarm.severity],
    farm: alarm.farmName,
    house: alarm.houseName,
    cause: ALARM_CAUSE_NAMES[locale][alarm.cause],
    value,
    time: timeOf(alarm.raisedAt, timeZone),
  };
}

/**
 * The one text every free-text channel (robots, e-mail, the webhook's readers) carries: what,
 * where, how bad, when, and the link that acknowledges it.
 */
export function alarmText(n: Notification, locale: NotifyLocale, timeZone: string): string {
  const p = alarmParts(n.alarm, locale, timeZone);
  const w = WORDS[locale];
  const lines =
    locale === 'zh'
      ? [
          `【Roost】${p.severity}：${p.cause}`,
          `${p.farm} / ${p.house}${p.value ? `：${p.value}` : ''}`,
          `${w.raised} ${p.time}${n.sequence > 1 ? `（第 ${n.sequence} 次提醒）` : ''}`,
        ]
      : [
          `[Roost] ${p.severity}: ${p.cause}`,
          `${p.farm} / ${p.house}${p.value ? `: ${p.value}` : ''}`,
          `${w.raised} ${p.time}${n.sequence > 1 ? ` (reminder ${n.sequence})` : ''}`,
        ];
  if (n.link) lines.push(locale === 'zh' ? `${w.ack}：${n.link}` : `${w.ack}: ${n.link}`);
  return lines.join('\n');
}

/** The e-mail's subject: one line a phone's mail list shows whole. */
export function alarmSubject(n: Notification, locale: NotifyLocale): string {
  const p = alarmParts(n.alarm, locale, 'UTC');
  return locale === 'zh'
    ? `【Roost】${p.severity}：${p.cause}——${p.farm} / ${p.house}`
    : `[Roost] ${p.severity}: ${p.cause} — ${p.farm} / ${p.house}`;
}
