import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Rows drawn above and below the visible ones, so a fast scroll does not show blanks. */
const OVERSCAN_ROWS = 2;

export type GridEntry<T> =
  { kind: 'group'; key: string; label: ReactNode } | { kind: 'item'; item: T };

export interface WindowedGridProps<T> {
  /** Items in order, with optional group headers between them. */
  entries: readonly GridEntry<T>[];
  /** A stable key per item. */
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

type Row<T> = { top: number; height: number } & (
  { kind: 'group'; key: string; label: ReactNode } | { kind: 'items'; key: string; items: T[] }
);

/**
 * A grid that renders only the rows in view (5,000 cards would be 5,000 observers and a slow
 * first paint); each row is absolutely placed inside a spacer as tall as all of them.
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
  const rows: Row<T>[] = [];
  let top = 0;
  let pending: T[] = [];
  const closeRow = () => {
    if (pending.length === 0) return;
    rows.push({
      kind: 'items',
      key: `r${String(keyOf(pending[0]!))}`,
      items: pending,
      top,
      height: rowHeightPx,
    });
    top += rowHeightPx + gapPx;
    pending = [];
  };
  for (const entry of entries) {
    if (entry.kind === 'group') {
      closeRow();
      rows.push({
        kind: 'group',
        key: `g${entry.key}`,
        label: entry.label,
        top,
        height: groupHeightPx,
      });
      top += groupHeightPx;
      continue;
    }
    pending.push(entry.item);
    if (pending.length === columns) closeRow();
  }
  closeRow();

  const from = viewport.top - OVERSCAN_ROWS * rowHeightPx;
  const to = viewport.top + viewport.height + OVERSCAN_ROWS * rowHeightPx;
  const visible = rows.filter((row) => row.top + row.height >= from && row.top <= to);

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
      <div style={{ height: top, position: 'relative' }}>
        {visible.map((row) =>
          row.kind === 'group' ? (
            <div
              key={row.key}
              className="roost-houses-grid__group"
              style={{ top: row.top, height: row.height }}
            >
              {row.label}
            </div>
          ) : (
            <div
              key={row.key}
              className="roost-houses-grid__row"
              style={{
                top: row.top,
                height: row.height,
                gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
              }}
            >
              {row.items.map((item) => (
                <div key={keyOf(item)}>{renderItem(item)}</div>
              ))}
            </div>
          ),
        )}
      </div>
    </div>
  );
}
