import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/** Rows drawn above and below the visible ones, so a fast scroll does not show blanks. */
const OVERSCAN_ROWS = 2;

export type GridEntry<T> =
  { kind: 'group'; key: string; label: ReactNode } | { kind: 'item'; item: T };

export interface WindowedGridProps<T> {
  /** Items in order, with optional group headers between them. */
  entries: readonly GridEntry<T>[];
  /** A stable key per item; a stable function too (module level), or the layout is redone. */
  keyOf: (item: T) => string | number;
  /** Renders one item (a card); it gets the cell's whole box. */
  renderItem: (item: T) => ReactNode;
  /** Height of one card row in px (cards are all the same height). */
  rowHeightPx: number;
  /** Narrowest a card may be, px: decides the number of columns. */
  minColumnWidthPx: number;
  /** Height of a group header row, px. */
  groupHeightPx?: number;
  gapPx?: number;
  'data-testid'?: string;
}

type Cell<T> =
  | { kind: 'group'; key: string; label: ReactNode; top: number }
  | { kind: 'item'; key: string | number; item: T; top: number; column: number };

interface Layout<T> {
  cells: Cell<T>[];
  /** Top of each line (a row of cards or a group header), ascending, for the window search. */
  lineTops: number[];
  /** Index of each line's first cell in `cells`. */
  lineStarts: number[];
  height: number;
}

function layOut<T>(
  entries: readonly GridEntry<T>[],
  keyOf: (item: T) => string | number,
  columns: number,
  rowHeightPx: number,
  groupHeightPx: number,
  gapPx: number,
): Layout<T> {
  const cells: Cell<T>[] = [];
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
function lineAt(lineTops: readonly number[], y: number): number {
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
 * A grid that renders only the rows in view (5,000 cards would be 5,000 observers and a slow
 * first paint). Every card is placed absolutely and keyed by its item, so a new order (a sort
 * by status while alarms come and go) moves the cards it shifts instead of mounting them again.
 */
export function WindowedGrid<T>({
  entries,
  keyOf,
  renderItem,
  rowHeightPx,
  minColumnWidthPx,
  groupHeightPx = 36,
  gapPx = 12,
  'data-testid': testId,
}: WindowedGridProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [viewport, setViewport] = useState({ top: 0, height: 800 });

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      setWidth(element.clientWidth);
      setViewport({ top: element.scrollTop, height: element.clientHeight });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    // A new list (filter, search) starts at the top.
    if (ref.current) ref.current.scrollTop = 0;
  }, [entries.length]);

  const columns = Math.max(1, Math.floor((width + gapPx) / (minColumnWidthPx + gapPx)));
  const layout = useMemo(
    () => layOut(entries, keyOf, columns, rowHeightPx, groupHeightPx, gapPx),
    [entries, keyOf, columns, rowHeightPx, groupHeightPx, gapPx],
  );

  const from = viewport.top - OVERSCAN_ROWS * rowHeightPx - rowHeightPx;
  const to = viewport.top + viewport.height + OVERSCAN_ROWS * rowHeightPx;
  const first = Math.max(0, lineAt(layout.lineTops, from));
  const last = lineAt(layout.lineTops, to);
  const visible = layout.cells.slice(
    layout.lineStarts[first] ?? layout.cells.length,
    layout.lineStarts[last] ?? layout.cells.length,
  );
  // Inner width less the row's 2 px padding each side, shared by the columns and their gaps.
  const inner = Math.max(0, width - 4);
  const columnWidth = (inner - gapPx * (columns - 1)) / columns;

  return (
    <div
      ref={ref}
      className="roost-houses-grid"
      data-testid={testId}
      onScroll={(event) =>
        setViewport({
          top: event.currentTarget.scrollTop,
          height: event.currentTarget.clientHeight,
        })
      }
    >
      <div style={{ height: layout.height, position: 'relative' }}>
        {visible.map((cell) =>
          cell.kind === 'group' ? (
            <div
              key={cell.key}
              className="roost-houses-grid__group"
              style={{ top: cell.top, height: groupHeightPx }}
            >
              {cell.label}
            </div>
          ) : (
            <div
              key={cell.key}
              className="roost-houses-grid__cell"
              style={{
                transform: `translate(${2 + cell.column * (columnWidth + gapPx)}px, ${cell.top}px)`,
                width: columnWidth,
                height: rowHeightPx,
              }}
            >
              {renderItem(cell.item)}
            </div>
          ),
        )}
      </div>
    </div>
  );
}
