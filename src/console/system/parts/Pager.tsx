import { Button, ButtonGroup, Classes } from '@blueprintjs/core';
import { ChevronLeftIcon, ChevronRightIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

export interface PagerProps {
  /** The current page, from 1. */
  page: number;
  pages: number;
  total: number;
  /** Asked for another page. */
  onPage(page: number): void;
}

/** Total and previous/next under a system-management table. */
export const Pager = observer(function Pager({ page, pages, total, onPage }: PagerProps) {
  const { t } = useTranslation();
  return (
    <div className="roost-admin__pager">
      <span className={Classes.TEXT_MUTED}>{t('admin.common.total', { total })}</span>
      <ButtonGroup>
        <Button
          icon={<ChevronLeftIcon />}
          aria-label={t('admin.common.prev')}
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        />
        <Button disabled text={t('admin.common.page', { page, pages })} />
        <Button
          icon={<ChevronRightIcon />}
          aria-label={t('admin.common.next')}
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        />
      </ButtonGroup>
    </div>
  );
});
