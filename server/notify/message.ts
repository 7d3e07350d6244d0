import { ALARM_CAUSE_NAMES, type Alarm } from '../../src/contract/alarms';
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

export function alarmParts(alarm: Alarm, locale: NotifyLocale, timeZone: string): AlarmParts {
  const w = WORDS[locale];
  let value = alarm.text ?? '';
  if (alarm.value !== null) {
    value = `${alarm.value}${alarm.limit !== null ? ` (${w.limit} ${alarm.limit})` : ''}`;
    if (locale === 'zh' && alarm.limit !== null)
      value = `${alarm.value}（${w.limit} ${alarm.limit}）`;
  }
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
