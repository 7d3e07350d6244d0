import ExcelJS from 'exceljs';
import { escapeCell, formatDateTime } from '../export/cells';

export { escapeCell, formatDateTime };

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
