import { escapeCell } from './cells';

/** What a CSV cell may hold: text, a number written as it is, or nothing (an empty cell). */
export type CsvCell = string | number | null;

/**
 * `always` puts every cell in quotes (the operation log and modify records: their readers'
 * tools and the tests that hold them expect it); `asNeeded` quotes only a cell holding a quote,
 * a comma or a line break, so numbers stay bare and a spreadsheet reads them as numbers. Both
 * are RFC 4180.
 */
export type CsvQuoting = 'always' | 'asNeeded';

const NEEDS_QUOTES = /[",\n\r]/;

/**
 * One cell: text a spreadsheet would run as a formula gets its leading apostrophe (numbers
 * never do: -3.5 is a value), then quotes where `quoting` asks, a quote inside doubled.
 */
export function csvCell(cell: CsvCell, quoting: CsvQuoting = 'asNeeded'): string {
  const text = cell === null ? '' : typeof cell === 'number' ? String(cell) : escapeCell(cell);
  return quoting === 'always' || NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The one CSV writer of every export: a UTF-8 byte-order mark first (Excel otherwise reads
 * Chinese text in the ANSI code page), CRLF line ends as RFC 4180 says, and a last CRLF.
 */
export function toCsv(
  header: readonly CsvCell[],
  rows: readonly (readonly CsvCell[])[],
  quoting: CsvQuoting = 'asNeeded',
): Buffer {
  const lines = [header, ...rows].map((row) => row.map((c) => csvCell(c, quoting)).join(','));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}
