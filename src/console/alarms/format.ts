import { formatDateTime } from '../../i18n/dates';

/** An alarm's instant in the console's one date format (src/i18n/dates.ts), or ''. */
export function formatTime(iso: string | null): string {
  return formatDateTime(iso);
}

/** A value with its limit, rounded for reading: `31.2 / 30`. */
export function formatValue(value: number | null, limit: number | null): string {
  const r = (n: number) => String(Math.round(n * 10) / 10);
  if (value === null) return '';
  return limit === null ? r(value) : `${r(value)} / ${r(limit)}`;
}
