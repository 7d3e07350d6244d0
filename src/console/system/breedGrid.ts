import { BREED_TARGET_FIELDS, type BreedTargetRow } from '../../contract/admin';

/** An empty grid row for `ageDay`. */
export function emptyRow(ageDay: number): BreedTargetRow {
  const row = { ageDay } as BreedTargetRow;
  for (const f of BREED_TARGET_FIELDS) row[f] = null;
  return row;
}

/**
 * Rows pasted from a spreadsheet (tab-separated, as Excel and LibreOffice copy them; commas and
 * semicolons too): age first, then the columns in the grid's order. Empty cells stay empty.
 * Answers the rows, or the 1-based line that is not a row of numbers.
 */
export function parsePastedGrid(text: string): { rows: BreedTargetRow[] } | { badLine: number } {
  const rows: BreedTargetRow[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const cells = line.split(/\t|;|,/).map((c) => c.trim());
    const age = Number(cells[0]);
    // A header line (text in the first cell) is skipped, as people copy it along.
    if (index === 0 && Number.isNaN(age)) continue;
    if (!Number.isInteger(age) || age < 0) return { badLine: index + 1 };
    const row = emptyRow(age);
    for (const [i, field] of BREED_TARGET_FIELDS.entries()) {
      const cell = cells[i + 1];
      if (cell === undefined || cell === '') continue;
      const value = Number(cell);
      if (!Number.isFinite(value)) return { badLine: index + 1 };
      row[field] = value;
    }
    rows.push(row);
  }
  return { rows };
}
