/** Today in the browser's calendar, as the date input wants it. */
export function todayIso(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** A count of birds as a farmer reads it: in ten thousands (万只). */
export function tenThousands(n: number | null): string {
  return n === null ? '—' : (n / 10_000).toFixed(n >= 100_000 ? 2 : 3);
}

/** A figure with the digits it deserves, '—' when missing (never 0). */
export function figure(v: number | null, digits = 1): string {
  return v === null ? '—' : v.toFixed(digits);
}
