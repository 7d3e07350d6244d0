import { useEffect, useState } from 'react';
import { Alert, Button, FormGroup, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { DownloadIcon, SearchIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { EXPORT_WARN_ROWS, LOG_COLUMNS, logRowSchema } from '../../contract/admin';
import { LOG_SOURCES } from '../../contract/domain';
import { AdminListStore } from '../../stores/AdminListStore';
import { downloadFile } from '../../stores/AdminFiles';
import { useStores } from '../useStores';
import { ListTable } from '../ListTable';
import { notifyError, quietly } from '../system/parts/notify';
import { formatLocal, toIsoOrEmpty } from '../system/parts/dates';
import { functionLabel, renderOperation } from '../../contract/operationLog';
import '../system/parts/admin.css';
import { ScrollRegion } from '../ScrollRegion';
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

  useEffect(() => {
    void quietly(() => list.load(1));
  }, [list]);

  const search = () => void quietly(() => list.load(1));
  const reset = () => {
    list.resetFilters();
    setLocal({ from: '', to: '' });
    search();
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
    <div className="roost-page roost-admin" data-testid="page-log">
      <div className="roost-admin__card roost-admin__bar">
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
          <FormGroup key={key} label={t(`admin.log.${key}`)} labelFor={`log-${key}`}>
            <InputGroup
              id={`log-${key}`}
              name={key}
              value={list.filters[key]}
              onValueChange={(v) => list.setFilter(key, v)}
              onKeyDown={(e) => e.key === 'Enter' && search()}
            />
          </FormGroup>
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
        <Button
          intent={Intent.PRIMARY}
          icon={<SearchIcon />}
          text={t('admin.common.search')}
          onClick={search}
        />
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
      </div>
      <ScrollRegion className="roost-admin__card" label={t('route.log')}>
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
      </ScrollRegion>
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
    </div>
  );
});
