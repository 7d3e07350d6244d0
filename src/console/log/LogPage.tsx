import { useState } from 'react';
import { Alert, Button, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { DownloadIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { EXPORT_WARN_ROWS, LOG_COLUMNS, logRowSchema } from '../../contract/admin';
import { LOG_SOURCES } from '../../contract/domain';
import { AdminListStore } from '../../stores/AdminListStore';
import { downloadFile } from '../../stores/AdminFiles';
import { useStores } from '../useStores';
import { ListTable } from '../ListTable';
import { ListPage, TextFilter } from '../ListPage';
import { useListActions } from '../listActions';
import { notifyError } from '../system/parts/notify';
import { formatLocal, toIsoOrEmpty } from '../system/parts/dates';
import { functionLabel, renderOperation } from '../../contract/operationLog';
import '../system/parts/admin.css';
import { DateInput } from '../forms/DateInput';

const FILTERS = { from: '', to: '', operator: '', function: '', house: '', source: '' };
type Format = 'csv' | 'xlsx';

/** /log/index: the operation log with filters, paging and CSV/XLSX export. */
export const LogPage = observer(function LogPage() {
  const { t, i18n } = useTranslation();
  const stores = useStores();
  const [list] = useState(() => new AdminListStore(stores.api, '/log/list', FILTERS, logRowSchema));
  const [local, setLocal] = useState({ from: '', to: '' });
  const [pending, setPending] = useState<Format | null>(null);
  // The log is read, never changed here: no edit dialog, no delete.
  const actions = useListActions(list);

  const reset = () => {
    list.resetFilters();
    setLocal({ from: '', to: '' });
    void actions.search();
  };
  // `confirmed`: the user has seen the warning, which the server also asks for above 15,000 rows.
  const download = async (format: Format, confirmed = false) => {
    setPending(null);
    const params = new URLSearchParams({
      ...(list.query as Record<string, string>),
      format,
      ...(confirmed ? { confirm: '1' } : {}),
    });
    try {
      await downloadFile(
        `/api/log/export?${params}`,
        { token: stores.session.token, locale: stores.ui.language },
        `operation-log.${format}`,
      );
    } catch (error) {
      notifyError(
        error instanceof Error && error.message ? error : new Error(t('admin.log.exportFailed')),
      );
    }
  };
  // Above 15,000 rows the user is warned before the download starts.
  const askExport = (format: Format) =>
    list.total > EXPORT_WARN_ROWS ? setPending(format) : void download(format);
  const setDate = (key: 'from' | 'to', value: string) => {
    setLocal((s) => ({ ...s, [key]: value }));
    list.setFilter(key, toIsoOrEmpty(value));
  };

  return (
    <ListPage
      testId="page-log"
      actions={actions}
      regionLabel={t('route.log')}
      filters={
        <>
          <FormGroup label={t('admin.log.from')} labelFor="log-from">
            <DateInput
              id="log-from"
              withTime
              value={local.from}
              onChange={(value) => setDate('from', value)}
            />
          </FormGroup>
          <FormGroup label={t('admin.log.to')} labelFor="log-to">
            <DateInput
              id="log-to"
              withTime
              value={local.to}
              onChange={(value) => setDate('to', value)}
            />
          </FormGroup>
          {(['operator', 'function', 'house'] as const).map((key) => (
            <TextFilter
              key={key}
              id={`log-${key}`}
              name={key}
              label={t(`admin.log.${key}`)}
              value={list.filters[key]}
              onChange={(v) => list.setFilter(key, v)}
              actions={actions}
            />
          ))}
          <FormGroup label={t('admin.log.source')} labelFor="log-source">
            <HTMLSelect
              id="log-source"
              value={list.filters.source}
              onChange={(e) => list.setFilter('source', e.target.value)}
            >
              <option value="">{t('admin.common.all')}</option>
              {LOG_SOURCES.map((s) => (
                <option key={s} value={s}>
                  {t(`admin.log.sources.${s}`)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        </>
      }
      barEnd={
        <>
          <Button text={t('admin.common.reset')} onClick={reset} />
          <Button
            icon={<DownloadIcon />}
            text={t('admin.log.exportCsv')}
            onClick={() => askExport('csv')}
          />
          <Button
            icon={<DownloadIcon />}
            text={t('admin.log.exportXlsx')}
            onClick={() => askExport('xlsx')}
          />
        </>
      }
      after={
        <Alert
          isOpen={pending !== null}
          intent={Intent.WARNING}
          confirmButtonText={t('admin.log.exportConfirm')}
          cancelButtonText={t('admin.common.cancel')}
          onConfirm={() => pending && void download(pending, true)}
          onCancel={() => setPending(null)}
        >
          <p data-testid="export-warning">{t('admin.log.exportWarn', { total: list.total })}</p>
        </Alert>
      }
    >
      <ListTable
        className="roost-admin__table"
        paged={list}
        headers={LOG_COLUMNS.map((c) => t(`admin.log.${c}`))}
      >
        {list.rows.map((r) => (
          <tr key={r.id}>
            <td className="roost-admin__when">{formatLocal(r.at)}</td>
            <td>{r.operatorName}</td>
            <td>{functionLabel(r.function, i18n.language)}</td>
            <td>{r.houseName}</td>
            <td>{renderOperation(r.operation, r.params, i18n.language)}</td>
            <td>{r.remark}</td>
            <td>
              {(LOG_SOURCES as readonly string[]).includes(r.source)
                ? t(`admin.log.sources.${r.source as 'other'}`)
                : r.source}
            </td>
            <td>{r.networkId}</td>
          </tr>
        ))}
      </ListTable>
    </ListPage>
  );
});
