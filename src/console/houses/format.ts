import { type TFunction } from 'i18next';
import { METRIC_BY_KEY, metricLabel, type SentinelKind } from '../../contract/metrics';
import { STALE_AFTER_MS } from '../../stores/houseStatus';

const KNOWN_MODES = new Set([1, 2, 10, 11, 12, 13, 99]);

export function modeText(t: TFunction, mode: number | null): string {
  if (mode === null) return '—';
  return KNOWN_MODES.has(mode)
    ? t(`houses.mode.m${mode}` as 'houses.mode.m1')
    : t('houses.mode.undefined');
}

/** A metric's value with its unit, or what a sentinel means; '—' when nothing arrived. */
export function metricText(
  t: TFunction,
  key: string,
  metrics: Record<string, number>,
  faults: Record<string, string>,
): { text: string; fault: SentinelKind | null } {
  const fault = faults[key] as SentinelKind | undefined;
  if (fault) return { text: t(`houses.sentinel.${fault}`), fault };
  const value = metrics[key];
  if (value === undefined) return { text: '—', fault: null };
  // DOMAIN.md: a negative ventilation level is the controller's "no level".
  if (key === 'ventilation_level' && value < 0) return { text: '---', fault: null };
  const unit = METRIC_BY_KEY.get(key)?.unit ?? '';
  return { text: `${formatNumber(value)}${unit ? ` ${unit}` : ''}`, fault: null };
}

export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/** "12 s ago", "3 min ago"; `stale` past STALE_AFTER_MS. */
export function freshness(
  t: TFunction,
  lastTs: string | null,
  now: number,
): { text: string; stale: boolean } {
  if (!lastTs) return { text: t('houses.fresh.never'), stale: true };
  const age = Math.max(0, now - Date.parse(lastTs));
  const seconds = Math.floor(age / 1000);
  let text: string;
  if (seconds < 60) text = t('houses.fresh.seconds', { count: seconds });
  else if (seconds < 3600) text = t('houses.fresh.minutes', { count: Math.floor(seconds / 60) });
  else if (seconds < 86_400) text = t('houses.fresh.hours', { count: Math.floor(seconds / 3600) });
  else text = t('houses.fresh.days', { count: Math.floor(seconds / 86_400) });
  return { text, stale: age > STALE_AFTER_MS };
}

/** Spec §9: the alive count is shown in units of 10K. */
export function inTenThousands(count: number): string {
  return (count / 10_000).toFixed(2);
}

/** "yyyy-MM-dd HH:mm" in the browser's zone. */
export function formatTime(ms: number, withDate = true): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return withDate
    ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`
    : time;
}

/** The alarm's own text (controller alarms), else its subject, value and limit. */
export function alarmText(
  language: 'en' | 'zh',
  top: {
    cause: string;
    subject: string | null;
    value: number | null;
    limit: number | null;
    text: string | null;
  } | null,
): string {
  if (!top) return '';
  if (top.text) return top.text;
  const subject = top.subject ? metricLabel(top.subject, language) : top.cause;
  const value = top.value === null ? '' : ` ${formatNumber(top.value)}`;
  const limit = top.limit === null ? '' : ` / ${formatNumber(top.limit)}`;
  return `${subject}${value}${limit}`;
}
