/**
 * When an alarm phone entry may be called: inside one of its two daily periods (local time of
 * the installation, ROOST_TIMEZONE), every day or on work days (Monday to Friday; public
 * holidays are not known to Roost). A period may pass midnight (22:00–06:00); its end is
 * excluded.
 */
export interface PhoneWindow {
  period1Start: string;
  period1End: string;
  period2Start: string | null;
  period2End: string | null;
  dateType: 'daily' | 'workdays' | string;
}

/** The next window is searched at most this far ahead (a week covers every date type). */
const SEARCH_MINUTES = 8 * 24 * 60;

const formatters = new Map<string, Intl.DateTimeFormat>();

function localParts(date: Date, timeZone: string): { weekday: number; minute: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  let weekday = 0;
  let hour = 0;
  let minute = 0;
  for (const p of f.formatToParts(date)) {
    if (p.type === 'weekday')
      weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.value);
    else if (p.type === 'hour') hour = Number(p.value);
    else if (p.type === 'minute') minute = Number(p.value);
  }
  return { weekday, minute: hour * 60 + minute };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

function inPeriod(start: string, end: string, minute: number): boolean {
  const s = minutesOf(start);
  const e = minutesOf(end);
  if (s === e) return true;
  return s < e ? minute >= s && minute < e : minute >= s || minute < e;
}

export function inWindow(window: PhoneWindow, date: Date, timeZone: string): boolean {
  const { weekday, minute } = localParts(date, timeZone);
  if (window.dateType === 'workdays' && (weekday === 0 || weekday === 6)) return false;
  if (inPeriod(window.period1Start, window.period1End, minute)) return true;
  return (
    window.period2Start !== null &&
    window.period2End !== null &&
    inPeriod(window.period2Start, window.period2End, minute)
  );
}

/** The first whole minute at or after `date` inside the window; null if none within a week. */
export function nextWindowStart(window: PhoneWindow, date: Date, timeZone: string): Date | null {
  const start = Math.ceil(date.getTime() / 60_000) * 60_000;
  for (let i = 0; i < SEARCH_MINUTES; i += 1) {
    const candidate = new Date(start + i * 60_000);
    if (inWindow(window, candidate, timeZone)) return candidate;
  }
  return null;
}
