import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../http/errors';
import type { ExportFormat } from '../../src/contract/houses';
import { escapeCell as safeText, formatDateTime } from '../export/cells';
import { toCsv, type CsvCell } from '../export/csv';

export { safeText };

export type Cell = CsvCell;

export interface ExportTable {
  /** The first row. */
  header: string[];
  rows: Cell[][];
}

export async function toXlsx(table: ExportTable, sheetName: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
  sheet.addRow(table.header.map(safeText));
  for (const row of table.rows)
    sheet.addRow(row.map((cell) => (typeof cell === 'string' ? safeText(cell) : cell)));
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((column) => (column.width = 20));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The media types of a table sent as a file, as the API description names them. */
export const TABLE_MEDIA_TYPES = Object.values(CONTENT_TYPES).map((type) => type.split(';')[0]!);

/** Bucket start as local "yyyy-MM-dd HH:mm:ss" in the server's zone (the product's date format). */
export function formatTime(ms: number, timeZone: string): string {
  return formatDateTime(new Date(ms), timeZone);
}

/**
 * Sends `table` as a CSV or XLSX download named `name`: the one way every export route answers.
 * `refuseEmpty` answers 404 for a table without rows (a trend or comparison with no data);
 * the sheet is named `sheet`, else `name`.
 */
export async function sendTable(
  reply: FastifyReply,
  table: ExportTable,
  format: ExportFormat,
  name: string,
  options: { sheet?: string; refuseEmpty?: boolean } = {},
) {
  if (options.refuseEmpty && table.rows.length === 0) throw new ApiError(404, 'houses.noData');
  let body: Buffer;
  try {
    body =
      format === 'csv'
        ? toCsv(table.header, table.rows)
        : await toXlsx(table, options.sheet ?? name);
  } catch {
    throw new ApiError(500, 'houses.exportFailed');
  }
  return reply
    .code(200)
    .header('content-type', CONTENT_TYPES[format])
    .header('content-disposition', `attachment; filename="${name}.${format}"`)
    .send(body);
}
