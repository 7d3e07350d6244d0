/**
 * The start of the day containing an instant, in a time zone, as the daily rollup stores it
 * (`date_trunc('day', t at time zone zone) at time zone zone`). Cached per hour: the past has
 * a few thousand distinct hours.
 */
export function dayStartIn(timeZone: string): (ms: number) => number {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  /** The zone's offset from UTC at an instant, in ms. */
  const offsetAt = (ms: number) => {
    const parts = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
    const local = Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    );
    return local - Math.floor(ms / 1000) * 1000;
  };
  const cache = new Map<number, number>();
  return (ms) => {
    let day = cache.get(ms);
    if (day !== undefined) return day;
    const localMidnight = Math.floor((ms + offsetAt(ms)) / 86_400_000) * 86_400_000;
    // The offset at midnight may differ from the one now (a clock change that day).
    day = localMidnight - offsetAt(localMidnight - offsetAt(ms));
    cache.set(ms, day);
    return day;
  };
}
