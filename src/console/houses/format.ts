import { type TFunction } from 'i18next';
import { runModeKey } from '../../contract/domain';
import { type AlarmCause } from '../../contract/alarms';
import { METRIC_BY_KEY, type SentinelKind } from '../../contract/metrics';
import { alarmConcern, CODED_VALUE_CAUSES } from '../../contract/alarmWords';
import { formatClock, formatDateTime } from '../../i18n/dates';
import { formatNumber } from '../../i18n/numbers';
import { STALE_AFTER_MS } from '../../stores/houseStatus';

/** A run mode's name; a code the contract does not know reads "Undefined", as on the controller. */
export function modeText(t: TFunction, mode: number | null): string {
  if (mode === null) return '—';
  return t(`houses.mode.${runModeKey(mode)}`);
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
  // A negative ventilation level is the controller's "no level".
  if (key === 'ventilation_level' && value < 0) return { text: '---', fault: null };
  const unit = METRIC_BY_KEY.get(key)?.unit ?? '';
  return { text: `${formatNumber(value)}${unit ? ` ${unit}` : ''}`, fault: null };
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

/** A chart's or card's instant to the minute, in the console's one date format. */
export function formatTime(ms: number, withDate = true): string {
  return withDate ? formatDateTime(ms, { seconds: false }) : formatClock(ms, { seconds: false });
}

interface AlarmLike {
  cause: AlarmCause;
  subject: string | null;
  value: number | null;
  limit: number | null;
  text: string | null;
}

/** The alarm's detail: what it concerns, then its value and limit when it has them. */
export function alarmDetail(t: TFunction, language: 'en' | 'zh', alarm: AlarmLike): string {
  // A coded value (a device's state) is said in words by the subject, not printed as a number.
  const coded = CODED_VALUE_CAUSES.has(alarm.cause);
  const value = alarm.value === null || coded ? '' : ` ${formatNumber(alarm.value)}`;
  const limit = alarm.limit === null ? '' : ` / ${formatNumber(alarm.limit)}`;
  return `${alarmConcern(alarm, language)}${value}${limit}`.trim();
}

/** An alarm in one line, for cards and lists: its cause in words, then its detail. */
export function alarmText(t: TFunction, language: 'en' | 'zh', alarm: AlarmLike | null): string {
  if (!alarm) return '';
  const cause = t(`alarms.cause.${alarm.cause}`);
  const detail = alarmDetail(t, language, alarm);
  return detail ? `${cause}: ${detail}` : cause;
}
