import ExcelJS from 'exceljs';
import { escapeCell, formatDateTime } from '../export/cells';

export { escapeCell, formatDateTime };

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
