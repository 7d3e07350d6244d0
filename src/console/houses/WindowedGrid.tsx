import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  columnLeft,
  columnsFor,
  columnWidthFor,
  layOut,
  visibleCells,
  type GridEntry as WindowEntry,
} from './gridWindow';

export type GridEntry<T> = WindowEntry<T, ReactNode>;

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

  const columns = columnsFor(width, minColumnWidthPx, gapPx);
  const layout = useMemo(
    () => layOut(entries, keyOf, columns, { rowHeightPx, groupHeightPx, gapPx }),
    [entries, keyOf, columns, rowHeightPx, groupHeightPx, gapPx],
  );
  const visible = visibleCells(layout, viewport, rowHeightPx);
  const columnWidth = columnWidthFor(width, columns, gapPx);

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
                transform: `translate(${columnLeft(cell.column, columnWidth, gapPx)}px, ${cell.top}px)`,
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
