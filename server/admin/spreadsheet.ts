import ExcelJS from 'exceljs';

/**
 * A cell a spreadsheet would run as a formula (or as DDE: tab and CR start one too) gets a
 * leading apostrophe, the OWASP "CSV injection" advice: Excel shows the text, runs nothing.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** RFC 4180: quote every cell, double the quotes inside. */
function csvCell(value: string): string {
  return `"${escapeCell(value).replace(/"/g, '""')}"`;
}

/**
 * CSV with a UTF-8 byte-order mark (Excel otherwise reads Chinese text as the ANSI code page)
 * and CRLF line ends, as RFC 4180 says.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): Buffer {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

export async function toXlsx(
  sheetName: string,
  header: readonly string[],
  rows: readonly (readonly string[])[],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  sheet.addRow([...header]).font = { bold: true };
  // Written as plain strings (never `{ formula }`), and escaped too, so a copy-paste of a
  // cell into another sheet stays harmless.
  for (const row of rows) sheet.addRow(row.map(escapeCell));
  sheet.columns.forEach((column) => {
    column.width = 20;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one,
 * and an export formats up to 100,000 dates.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD HH:mm:ss` in the installation's time zone (spec §9 default date format). */
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
