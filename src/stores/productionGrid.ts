import {
  DAY_FIELDS,
  REQUIRED_DAY_FIELDS,
  type DayField,
  type DayRecord,
  type DayRecordInput,
} from '../contract/production';

/** The grid's editable columns: the day's values, then the note. */
export const GRID_COLUMNS = [...DAY_FIELDS, 'note'] as const;
export type GridColumn = (typeof GRID_COLUMNS)[number];

/** One house's row as typed: text per column, so half-typed numbers survive. */
export type Draft = Record<GridColumn, string>;
export type CellError = 'required' | 'invalid';

const INTEGER_FIELDS: ReadonlySet<DayField> = new Set([
  'deathsAm',
  'deathsPm',
  'cullsAm',
  'cullsPm',
  'eggs',
]);

export function emptyDraft(): Draft {
  return Object.fromEntries(GRID_COLUMNS.map((c) => [c, ''])) as Draft;
}

export function draftOf(record: DayRecord | null): Draft {
  const draft = emptyDraft();
  if (!record) return draft;
  for (const f of DAY_FIELDS) draft[f] = record[f] === null ? '' : String(record[f]);
  draft.note = record.note;
  return draft;
}

/** A row with nothing typed is left out of the save (a house not yet counted today). */
export function isBlank(draft: Draft): boolean {
  return GRID_COLUMNS.every((c) => draft[c].trim() === '');
}

/**
 * A draft as the API takes it, or the cells that refuse it: an empty required value, or text
 * that is not a number of 0 or more (a comma as decimal mark is accepted, as spreadsheets paste).
 */
export function inputOf(
  draft: Draft,
  houseId: number,
  day: string,
): { input: DayRecordInput | null; errors: Partial<Record<DayField, CellError>> } {
  const errors: Partial<Record<DayField, CellError>> = {};
  const values: Partial<Record<DayField, number | null>> = {};
  for (const field of DAY_FIELDS) {
    const text = draft[field].trim().replace(',', '.');
    if (text === '') {
      if (REQUIRED_DAY_FIELDS.includes(field)) errors[field] = 'required';
      values[field] = null;
      continue;
    }
    const n = Number(text);
    if (!Number.isFinite(n) || n < 0 || (INTEGER_FIELDS.has(field) && !Number.isInteger(n)))
      errors[field] = 'invalid';
    else values[field] = n;
  }
  if (Object.keys(errors).length > 0) return { input: null, errors };
  return {
    input: { houseId, day, ...values, note: draft.note.trim() } as DayRecordInput,
    errors,
  };
}

/** Rows and cells of text copied from a spreadsheet (tab-separated lines). */
export function parsePaste(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => line.split('\t'));
}

/**
 * Pastes a block into the drafts from a starting cell: row by row down the houses, cell by cell
 * across the columns; what falls outside the grid is dropped.
 */
export function pasteInto(
  drafts: readonly Draft[],
  startRow: number,
  startColumn: number,
  block: readonly string[][],
): Draft[] {
  const next = drafts.map((d) => ({ ...d }));
  block.forEach((cells, r) => {
    const row = next[startRow + r];
    if (!row) return;
    cells.forEach((cell, c) => {
      const column = GRID_COLUMNS[startColumn + c];
      if (column) row[column] = cell.trim();
    });
  });
  return next;
}
