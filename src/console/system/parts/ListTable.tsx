import { type ReactNode } from 'react';
import { Classes, HTMLTable } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { quietly } from './notify';
import { Pager } from './Pager';

/** What a list page's store gives the table: one page of rows and where it stands. */
export interface PagedRows<Row> {
  rows: Row[];
  loaded: boolean;
  page: number;
  pages: number;
  total: number;
  load(page: number): Promise<unknown>;
}

interface ListTableProps<Row> {
  list: PagedRows<Row>;
  /** The header cells' texts, left to right. */
  headers: ReactNode[];
  /** One `<tr>` a row. */
  row(row: Row): ReactNode;
  /** Rows that open something when clicked (the breed list). */
  interactive?: boolean;
}

/**
 * The table of a system-management list (organisations, users, breeds, the operation log):
 * the page's rows, a line saying there are none, and the pager under them.
 */
function ListTableOf<Row>({ list, headers, row, interactive }: ListTableProps<Row>) {
  const { t } = useTranslation();
  return (
    <>
      <HTMLTable className="roost-admin__table" compact striped interactive={interactive}>
        <thead>
          <tr>
            {headers.map((header, i) => (
              <th key={i}>{header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {list.rows.map(row)}
          {list.loaded && list.rows.length === 0 && (
            <tr>
              <td colSpan={headers.length} className={Classes.TEXT_MUTED}>
                {t('admin.common.empty')}
              </td>
            </tr>
          )}
        </tbody>
      </HTMLTable>
      <Pager
        page={list.page}
        pages={list.pages}
        total={list.total}
        onPage={(p) => void quietly(() => list.load(p))}
      />
    </>
  );
}

export const ListTable = observer(ListTableOf) as typeof ListTableOf;
