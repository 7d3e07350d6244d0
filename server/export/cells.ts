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
