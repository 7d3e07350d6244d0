/**
 * The windowing arithmetic of WindowedGrid, apart from React so it can be read and tested on
 * its own: where every card and group header sits, and which of them a scroll position draws.
 */

/** Rows drawn above and below the visible ones, so a fast scroll does not show blanks. */
export const OVERSCAN_ROWS = 2;

export type GridEntry<T, L> = { kind: 'group'; key: string; label: L } | { kind: 'item'; item: T };

export type GridCell<T, L> =
  | { kind: 'group'; key: string; label: L; top: number }
  | { kind: 'item'; key: string | number; item: T; top: number; column: number };

export interface GridLayout<T, L> {
  cells: GridCell<T, L>[];
  /** Top of each line (a row of cards or a group header), ascending, for the window search. */
  lineTops: number[];
  /** Index of each line's first cell in `cells`. */
  lineStarts: number[];
  height: number;
}

export interface GridSizes {
  /** Height of one card row, px. */
  rowHeightPx: number;
  /** Height of a group header row, px. */
  groupHeightPx: number;
  /** Space between cards and between card rows, px. */
  gapPx: number;
}

/** How many columns of cards at least `minColumnWidthPx` wide fit in `widthPx`: never fewer than one. */
export function columnsFor(widthPx: number, minColumnWidthPx: number, gapPx: number): number {
  return Math.max(1, Math.floor((widthPx + gapPx) / (minColumnWidthPx + gapPx)));
}

/**
 * Places every entry: items fill rows of `columns` left to right, and a group header always
 * starts a line of its own (closing a half-filled row above it).
 */
export function layOut<T, L>(
  entries: readonly GridEntry<T, L>[],
  keyOf: (item: T) => string | number,
  columns: number,
  { rowHeightPx, groupHeightPx, gapPx }: GridSizes,
): GridLayout<T, L> {
  const cells: GridCell<T, L>[] = [];
  const lineTops: number[] = [];
  const lineStarts: number[] = [];
  let top = 0;
  let column = 0;
  const closeRow = () => {
    if (column === 0) return;
    top += rowHeightPx + gapPx;
    column = 0;
  };
  for (const entry of entries) {
    if (entry.kind === 'group') {
      closeRow();
      lineTops.push(top);
      lineStarts.push(cells.length);
      cells.push({ kind: 'group', key: `g${entry.key}`, label: entry.label, top });
      top += groupHeightPx;
      continue;
    }
    if (column === 0) {
      lineTops.push(top);
      lineStarts.push(cells.length);
    }
    cells.push({ kind: 'item', key: keyOf(entry.item), item: entry.item, top, column });
    column += 1;
    if (column === columns) closeRow();
  }
  closeRow();
  return { cells, lineTops, lineStarts, height: top };
}

/** The first line whose top is at or after `y` (binary search). */
export function lineAt(lineTops: readonly number[], y: number): number {
  let lo = 0;
  let hi = lineTops.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lineTops[mid]! < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The cells to draw for a viewport scrolled to `top` and `height` px high: whole lines that
 * touch it, and OVERSCAN_ROWS rows' worth more above and below. A line that starts up to one
 * row above the window is still partly in view, hence the extra row above.
 */
export function visibleCells<T, L>(
  layout: GridLayout<T, L>,
  viewport: { top: number; height: number },
  rowHeightPx: number,
): GridCell<T, L>[] {
  const from = viewport.top - OVERSCAN_ROWS * rowHeightPx - rowHeightPx;
  const to = viewport.top + viewport.height + OVERSCAN_ROWS * rowHeightPx;
  const first = Math.max(0, lineAt(layout.lineTops, from));
  const last = lineAt(layout.lineTops, to);
  return layout.cells.slice(
    layout.lineStarts[first] ?? layout.cells.length,
    layout.lineStarts[last] ?? layout.cells.length,
  );
}

/** Width of one column: the inner width (less the row's 2 px padding each side) shared out. */
export function columnWidthFor(widthPx: number, columns: number, gapPx: number): number {
  const inner = Math.max(0, widthPx - 4);
  return (inner - gapPx * (columns - 1)) / columns;
}

/** A card's left edge, px: the 2 px padding, then whole columns and their gaps. */
export function columnLeft(column: number, columnWidthPx: number, gapPx: number): number {
  return 2 + column * (columnWidthPx + gapPx);
}
