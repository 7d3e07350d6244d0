import { type ReactNode } from 'react';
import { Classes, HTMLTable } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { ScrollRegion } from './ScrollRegion';
import { quietly } from './system/parts/notify';
import { Pager } from './system/parts/Pager';

/** What a list page's store gives the table: one page of rows and where it stands. */
export interface PagedRows<Row> {
  rows: Row[];
  loaded: boolean;
  page: number;
  pages: number;
  total: number;
  load(page: number): Promise<unknown>;
}

export interface ListTableProps {
  /** Column headings, in order; an empty one for a column of buttons. */
  headers: readonly ReactNode[];
  /** The rows. */
  children?: ReactNode;
  /**
   * Shown across the table instead of rows (still loading, nothing to list); null: rows.
   * Left out with `paged`, an empty loaded page says there is nothing.
   */
  message?: string | null;
  /**
   * The region's name for a screen reader, with `scrollClassName`: the table then scrolls in
   * its own box (a phone scrolls it sideways). Without them it sits in the page's container.
   */
  label?: string;
  /** The scrolling box's class (its height and the phone layout). */
  scrollClassName?: string;
  className?: string;
  testId?: string;
  /** Rows that open something when clicked (the breed list). */
  interactive?: boolean;
  /** A store's paged list: the pager goes under the table. */
  paged?: PagedRows<unknown>;
}

/**
 * The console's one list table: a compact striped table, its headings, one muted row across
 * every column while there is nothing to list, and a pager under it for a paged list. The
 * alarm list, the notification pages and the system-management lists share it.
 */
export const ListTable = observer(function ListTable({
  headers,
  children,
  message,
  label,
  scrollClassName,
  className,
  testId,
  interactive,
  paged,
}: ListTableProps) {
  const { t } = useTranslation();
  const shown =
    message !== undefined
      ? message
      : paged?.loaded && paged.rows.length === 0
        ? t('admin.common.empty')
        : null;
  const table = (
    <HTMLTable className={className} compact striped interactive={interactive} data-testid={testId}>
      <thead>
        <tr>
          {headers.map((h, i) => (
            <th key={i}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {children}
        {shown && (
          <tr>
            <td colSpan={headers.length} className={Classes.TEXT_MUTED}>
              {shown}
            </td>
          </tr>
        )}
      </tbody>
    </HTMLTable>
  );
  return (
    <>
      {label !== undefined && scrollClassName !== undefined ? (
        <ScrollRegion className={scrollClassName} label={label}>
          {table}
        </ScrollRegion>
      ) : (
        table
      )}
      {paged && (
        <Pager
          page={paged.page}
          pages={paged.pages}
          total={paged.total}
          onPage={(p) => void quietly(() => paged.load(p))}
        />
      )}
    </>
  );
});
