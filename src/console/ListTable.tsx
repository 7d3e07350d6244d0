import { type ReactNode } from 'react';
import { Classes, HTMLTable } from '@blueprintjs/core';
import { ScrollRegion } from './ScrollRegion';

export interface ListTableProps {
  /** The region's name for a screen reader, usually the page's or the list's title. */
  label: string;
  /** The scrolling box's class (its height and the phone layout). */
  scrollClassName: string;
  className?: string;
  testId?: string;
  interactive?: boolean;
  /** Column headings, in order; an empty one for a column of buttons. */
  headers: readonly string[];
  /** Shown across the table instead of rows (still loading, nothing to list); null: rows. */
  message?: string | null;
  /** The rows. */
  children?: ReactNode;
}

/**
 * The console's list table: a compact striped table in a scroll region (a phone scrolls it
 * sideways), its headings, and one muted row across every column while there is nothing to
 * list. The alarm list and the notification pages share it.
 */
export function ListTable({
  label,
  scrollClassName,
  className,
  testId,
  interactive,
  headers,
  message,
  children,
}: ListTableProps) {
  return (
    <ScrollRegion className={scrollClassName} label={label}>
      <HTMLTable
        className={className}
        compact
        striped
        interactive={interactive}
        data-testid={testId}
      >
        <thead>
          <tr>
            {headers.map((h, i) => (
              <th key={i}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {children}
          {message && (
            <tr>
              <td colSpan={headers.length} className={Classes.TEXT_MUTED}>
                {message}
              </td>
            </tr>
          )}
        </tbody>
      </HTMLTable>
    </ScrollRegion>
  );
}
