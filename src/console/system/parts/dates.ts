import { formatDateTime } from '../../../i18n/dates';

/** An instant in the console's one date format (src/i18n/dates.ts), or ''. */
export function formatLocal(iso: string | null): string {
  return formatDateTime(iso);
}

/** A date field's value with its time (`2026-11-23T14:03`) as an ISO instant, or '' when empty or not a date. */
export function toIsoOrEmpty(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}
