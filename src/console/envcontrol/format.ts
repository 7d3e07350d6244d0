import { type TFunction } from 'i18next';
import { PARAM_BY_KEY, type Command } from '../../contract/envcontrol';

/** `YYYY-MM-DD HH:mm:ss` in the browser's time zone (the console's date format), or ''. */
export function formatTime(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A parameter's label in the page's language; an unknown key as it is. */
export function paramLabel(key: string, language: 'en' | 'zh'): string {
  return PARAM_BY_KEY.get(key)?.label[language] ?? key;
}

/** A value with its unit, as a farmer reads it: `2.5 ℃`, `18 h`. */
export function paramValue(key: string, value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const unit = PARAM_BY_KEY.get(key)?.unit ?? '';
  return unit ? `${value} ${unit}` : String(value);
}

/** "Heating offset 2.5 ℃, Lights on at 5 h". */
export function valuesText(values: Record<string, number>, language: 'en' | 'zh'): string {
  const comma = language === 'zh' ? '，' : ', ';
  return Object.entries(values)
    .map(([k, v]) => `${paramLabel(k, language)} ${paramValue(k, v)}`)
    .join(comma);
}

/** How long between two instants: "3 h 12 min", "2 d 4 h". */
export function duration(fromIso: string, toMs: number, language: 'en' | 'zh'): string {
  const minutes = Math.max(0, Math.floor((toMs - Date.parse(fromIso)) / 60_000));
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  const u = language === 'zh' ? { d: '天', h: '小时', m: '分钟' } : { d: ' d', h: ' h', m: ' min' };
  if (d > 0) return `${d}${u.d} ${h}${u.h}`;
  if (h > 0) return `${h}${u.h} ${m}${u.m}`;
  return `${m}${u.m}`;
}

/** What became of a command, in words: read-back values, the gateway's reason, or the wait. */
export function commandResult(t: TFunction, command: Command, language: 'en' | 'zh'): string {
  switch (command.state) {
    case 'applied':
      return command.readBack ? valuesText(command.readBack, language) : '';
    case 'rejected':
      return command.reason ?? '';
    case 'expired':
      return t('envcontrol.commands.expired');
    case 'superseded':
      return t('envcontrol.commands.superseded');
    default:
      return t('envcontrol.commands.waiting', { when: formatTime(command.expiresAt) });
  }
}
