/** `YYYY-MM-DD HH:mm:ss` in the browser's time zone (the console's date format), or ''. */
export function formatTime(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A value with its limit, rounded for reading: `31.2 / 30`. */
export function formatValue(value: number | null, limit: number | null): string {
  const r = (n: number) => String(Math.round(n * 10) / 10);
  if (value === null) return '';
  return limit === null ? r(value) : `${r(value)} / ${r(limit)}`;
}
