import { type Locale } from '../contract/envelope';

/**
 * The console's one way of writing dates and times, for every table, card, chart, export shown
 * on screen, the wall and the date fields. The product's default format is
 * year-month-day hour:minute:second, so the figures are written the same in both languages
 * (2026-11-23 14:03:05, always in the browser's zone, 24-hour clock); what differs by language
 * is the calendar's month heading, its weekday names and the hint in an empty field. Nothing
 * here uses `toLocaleDateString`: its output changes with the browser (22/11/2026, 11/22/2026,
 * 2026/11/22), which is how the console came to show three formats.
 */
export interface DateForms {
  /** Shown in an empty date field, in the order the figures are typed. */
  placeholder: string;
  /** The same, for a field that takes a time too. */
  placeholderWithTime: string;
  /** A month heading of the calendar, from its year and month (1–12). */
  month(year: number, month: number): string;
  /** Weekday names for a calendar row that starts on Monday. */
  weekdays: readonly string[];
}

const EN_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export const DATE_FORMS: Record<Locale, DateForms> = {
  en: {
    placeholder: 'YYYY-MM-DD',
    placeholderWithTime: 'YYYY-MM-DD hh:mm',
    month: (year, month) => `${EN_MONTHS[month - 1]} ${year}`,
    weekdays: ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'],
  },
  zh: {
    placeholder: '年-月-日',
    placeholderWithTime: '年-月-日 时:分',
    month: (year, month) => `${year}年${month}月`,
    weekdays: ['一', '二', '三', '四', '五', '六', '日'],
  },
};

const pad = (n: number) => String(n).padStart(2, '0');

/** A calendar date written alone (`2026-11-23`): a day, not an instant, so no zone applies. */
const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function toDate(value: Date | number | string): Date | null {
  if (typeof value === 'string') {
    const day = CALENDAR_DAY.exec(value);
    if (day) return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
  }
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** `2026-11-23`; '' for nothing or no date. */
export function formatDate(value: Date | number | string | null | undefined): string {
  const d = value === null || value === undefined || value === '' ? null : toDate(value);
  return d ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : '';
}

/** How a time is written: without seconds, or in a named zone rather than the browser's. */
export interface ClockOptions {
  seconds?: boolean;
  /**
   * An IANA zone to read the time in. The wall counts its days and hours in the deployment's
   * zone (as every day of the server does), so its clock and hour labels are written in it too.
   */
  timeZone?: string;
}

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * A zone's offset from UTC by zone and UTC hour: a wall writes a time for each of its ticker's
 * lines (up to 40 a second in a storm), and asking Intl for each costs more than the line.
 * Offsets change on an hour's boundary in practice (summer time), so the hour is the key.
 */
const zoneOffsets = new Map<string, number>();

function offsetOf(d: Date, timeZone: string): number {
  const hour = Math.floor(d.getTime() / 3_600_000);
  const key = `${timeZone}|${hour}`;
  let offset = zoneOffsets.get(key);
  if (offset === undefined) {
    let format = zoneFormats.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
      zoneFormats.set(timeZone, format);
    }
    const n: Record<string, number> = {};
    const at = new Date(hour * 3_600_000);
    for (const part of format.formatToParts(at))
      if (part.type !== 'literal') n[part.type] = Number(part.value);
    offset = Date.UTC(n.year!, n.month! - 1, n.day!, n.hour!, n.minute!, n.second!) - at.getTime();
    // Bounded: a wall runs for weeks, one new hour at a time.
    if (zoneOffsets.size > 256) zoneOffsets.clear();
    zoneOffsets.set(key, offset);
  }
  return offset;
}

/** The calendar and clock figures of an instant in `timeZone` (an IANA name). */
export function zonedParts(d: Date, timeZone: string) {
  const local = new Date(d.getTime() + offsetOf(d, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** The figures of `d` in the browser's zone, or in `timeZone` when one is named. */
function partsOf(d: Date, timeZone: string | undefined) {
  if (timeZone) return zonedParts(d, timeZone);
  return {
    year: d.getFullYear(),
    month: d.getMonth() + 1,
    day: d.getDate(),
    hour: d.getHours(),
    minute: d.getMinutes(),
    second: d.getSeconds(),
  };
}

/** `14:03:05`, or `14:03` without seconds; '' for nothing. */
export function formatClock(
  value: Date | number | string | null | undefined,
  options: ClockOptions = {},
): string {
  const d = value === null || value === undefined || value === '' ? null : toDate(value);
  if (!d) return '';
  const p = partsOf(d, options.timeZone);
  const hm = `${pad(p.hour)}:${pad(p.minute)}`;
  return options.seconds === false ? hm : `${hm}:${pad(p.second)}`;
}

/** `2026-11-23 14:03:05` (or without seconds); '' for nothing. */
export function formatDateTime(
  value: Date | number | string | null | undefined,
  options: ClockOptions = {},
): string {
  if (!options.timeZone) {
    const date = formatDate(value);
    return date && `${date} ${formatClock(value, options)}`;
  }
  const d = value === null || value === undefined || value === '' ? null : toDate(value);
  if (!d) return '';
  const p = zonedParts(d, options.timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${formatClock(d, options)}`;
}

/** The browser's own zone, or null where the browser does not say. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** The parts of a typed date, any of 2026-11-23, 2026/11/23, 2026.11.23, 2026年11月23日. */
const TYPED =
  /^\s*(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?(?:[\sT]+(\d{1,2})\s*[:：时]\s*(\d{1,2})\s*分?)?\s*$/;

/**
 * What a person typed in a date field, as the value the field holds: `2026-11-23`, or with
 * `withTime` `2026-11-23T14:03` (a time left out is midnight). null when it is not a real date
 * (2026-02-30 is refused, not rolled over into March).
 */
export function parseDateText(text: string, withTime = false): string | null {
  const m = TYPED.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, mi] = [Number(m[4] ?? 0), Number(m[5] ?? 0)];
  const date = new Date(y, mo - 1, d);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return null;
  if (h > 23 || mi > 59) return null;
  const day = `${y}-${pad(mo)}-${pad(d)}`;
  return withTime ? `${day}T${pad(h)}:${pad(mi)}` : day;
}

/** A field's value (`2026-11-23` or `2026-11-23T14:03`) as the field shows it. */
export function fieldText(value: string): string {
  if (!value) return '';
  const [day, time] = value.split('T');
  return time ? `${formatDate(day)} ${time.slice(0, 5)}` : formatDate(day);
}

/**
 * A typed time of day as `HH:MM` on the 24-hour clock: 22:00, 7:05, 2200, 22.00 or 22：00 (a
 * Chinese keyboard's colon). null when it is not a time (24:00 and 7:60 are refused).
 */
export function parseClockText(text: string): string | null {
  const match = /^(\d{1,2})\s*[:：.]?\s*(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, '0')}:${match[2]}`;
}
