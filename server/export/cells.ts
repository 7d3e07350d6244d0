/**
 * What every export shares (operation log, comparison table, trends): cells a spreadsheet will
 * never run, and dates as year-month-day hour:minute:second.
 */

/**
 * A cell a spreadsheet would run as a formula (or as DDE: tab and CR start one too) gets a
 * leading apostrophe, the OWASP "CSV injection" advice: Excel shows the text,
 * runs nothing. Numbers are not passed here: -3.5 is a value, not a formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one,
 * and an export formats up to 100,000 dates.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD HH:mm:ss` in the installation's time zone (the product's date format). */
export function formatDateTime(date: Date, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    // The Swedish locale writes ISO-like dates: 2024-05-01 13:04:05.
    format = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  return format.format(date);
}

/**
 * The zone an export's times are written in, for its time column's heading: "Asia/Shanghai
 * UTC+08:00". Pages show times in the browser's zone and exports in the installation's, so a
 * spreadsheet says which it is rather than leave a reader abroad an hour or eight off.
 */
export function zoneLabel(timeZone: string, at: Date = new Date()): string {
  const offset =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')
      ?.value.replace('GMT', 'UTC') ?? 'UTC';
  // Intl writes the zero offset as a bare "GMT".
  return `${timeZone} ${offset === 'UTC' ? 'UTC+00:00' : offset}`;
}

/** A time column's heading with the zone its cells are in: "Time (Asia/Shanghai UTC+08:00)". */
export function timeHeading(label: string, timeZone: string, at: Date = new Date()): string {
  return `${label} (${zoneLabel(timeZone, at)})`;
}
