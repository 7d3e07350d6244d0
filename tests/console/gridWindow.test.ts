import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  columnLeft,
  columnsFor,
  columnWidthFor,
  layOut,
  lineAt,
  OVERSCAN_ROWS,
  visibleCells,
  type GridEntry,
} from '../../src/console/houses/gridWindow';
import { WindowedGrid } from '../../src/console/houses/WindowedGrid';

const SIZES = { rowHeightPx: 100, groupHeightPx: 30, gapPx: 10 };
const items = (n: number, from = 1): GridEntry<number, string>[] =>
  Array.from({ length: n }, (_, i) => ({ kind: 'item', item: from + i }));
const group = (key: string): GridEntry<number, string> => ({ kind: 'group', key, label: key });
const keyOf = (n: number) => n;
const itemsOf = (cells: ReturnType<typeof visibleCells<number, string>>) =>
  cells.map((c): number | string => (c.kind === 'item' ? c.item : `g:${c.label}`));

describe('the windowed grid’s arithmetic', () => {
  it('fits as many columns as the width allows, and never fewer than one', () => {
    // Three 200 px cards and two 10 px gaps: 620 px.
    expect(columnsFor(620, 200, 10)).toBe(3);
    expect(columnsFor(619, 200, 10)).toBe(2);
    expect(columnsFor(0, 200, 10)).toBe(1);
    expect(columnsFor(50, 200, 10)).toBe(1);
  });

  it('shares the inner width among the columns and places each after its gap', () => {
    // 624 px less 2 px padding each side: 620, less two gaps, over three columns.
    expect(columnWidthFor(624, 3, 10)).toBe(200);
    expect(columnLeft(0, 200, 10)).toBe(2);
    expect(columnLeft(2, 200, 10)).toBe(422);
    // A grid not measured yet has no width; its cards are not given a negative one.
    expect(columnWidthFor(0, 1, 10)).toBe(0);
  });

  it('fills rows left to right and starts every group on a line of its own', () => {
    const layout = layOut([group('A'), ...items(4), group('B'), ...items(1, 5)], keyOf, 3, SIZES);
    const placed = layout.cells.map((c) =>
      c.kind === 'item' ? `${c.item}@${c.top}/${c.column}` : `${c.key}@${c.top}`,
    );
    // A: 0..30; row 30 (items 1-3); row 140 (item 4, half full, closed by B); B at 250; row 280.
    expect(placed).toEqual(['gA@0', '1@30/0', '2@30/1', '3@30/2', '4@140/0', 'gB@250', '5@280/0']);
    expect(layout.lineTops).toEqual([0, 30, 140, 250, 280]);
    expect(layout.lineStarts).toEqual([0, 1, 4, 5, 6]);
    expect(layout.height).toBe(390);
  });

  it('is empty and zero high without entries, and a full last row adds no blank one', () => {
    expect(layOut([], keyOf, 3, SIZES)).toEqual({
      cells: [],
      lineTops: [],
      lineStarts: [],
      height: 0,
    });
    expect(layOut(items(6), keyOf, 3, SIZES).height).toBe(220);
  });

  it('finds the first line at or below a height', () => {
    const tops = [0, 110, 220, 330];
    expect(lineAt(tops, -500)).toBe(0);
    expect(lineAt(tops, 0)).toBe(0);
    expect(lineAt(tops, 1)).toBe(1);
    expect(lineAt(tops, 220)).toBe(2);
    expect(lineAt(tops, 10_000)).toBe(4);
    expect(lineAt([], 5)).toBe(0);
  });

  it('draws the rows in view and two more each side, not the thousands beyond', () => {
    // 5,000 houses in 4 columns: 1,250 rows 110 px apart.
    const layout = layOut(items(5_000), keyOf, 4, SIZES);
    expect(layout.height).toBe(1_250 * 110);
    const top = visibleCells(layout, { top: 0, height: 800 }, SIZES.rowHeightPx);
    // Rows starting before 800 + 2 × 100 px: 0, 110 ... 990, ten rows.
    expect(itemsOf(top)).toEqual(items(40).map((e) => (e.kind === 'item' ? e.item : 0)));

    // Scrolled to row 500 (55,000 px): rows from 55,000 − 300 px to 55,800 + 200 px.
    const middle = itemsOf(visibleCells(layout, { top: 55_000, height: 800 }, 100));
    const firstRow = Math.ceil((55_000 - (OVERSCAN_ROWS + 1) * 100) / 110);
    expect(middle[0]).toBe(firstRow * 4 + 1);
    expect(middle.length).toBeLessThan(60);
    expect(middle).toContain(500 * 4 + 1);
    expect(middle.at(-1)).toBe(Math.ceil(56_000 / 110) * 4);
  });

  it('draws the last rows at the bottom, and nothing past the end', () => {
    const layout = layOut(items(10), keyOf, 2, SIZES);
    const bottom = itemsOf(visibleCells(layout, { top: 10_000, height: 500 }, 100));
    expect(bottom).toEqual([]);
    const end = itemsOf(visibleCells(layout, { top: 550 - 500, height: 500 }, 100));
    expect(end).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('keeps a group header with the rows it heads when scrolled past', () => {
    const layout = layOut([group('A'), ...items(100), group('B'), ...items(3, 101)], keyOf, 1, {
      ...SIZES,
    });
    const b = layout.cells.find((c) => c.kind === 'group' && c.key === 'gB')!;
    const seen = itemsOf(visibleCells(layout, { top: b.top, height: 300 }, 100));
    expect(seen).toContain('g:B');
    expect(seen).toEqual(expect.arrayContaining([101, 102, 103]));
    expect(seen).not.toContain('g:A');
  });

  it('renders only the window in the component too, before any measuring', () => {
    const entries = Array.from({ length: 5_000 }, (_, i) => ({ kind: 'item' as const, item: i }));
    const html = renderToString(
      createElement(WindowedGrid<number>, {
        entries,
        keyOf,
        renderItem: (n: number) => createElement('span', { className: 'card' }, `house ${n}`),
        rowHeightPx: 100,
        minColumnWidthPx: 200,
      }),
    );
    // Unmeasured: one column and an 800 px viewport, so rows up to 1,000 px: 9 cards of 5,000.
    const cards = html.match(/class="card"/g) ?? [];
    expect(cards.length).toBe(9);
    expect(html).toContain('house 0<');
    expect(html).not.toContain('house 9<');
    expect(html).toContain(`height:${5_000 * 112}px`);
  });
});
