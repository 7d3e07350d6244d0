import { useState } from 'react';
import { Button, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { DownloadIcon, SearchIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { PARAMS } from '../../contract/envcontrol';
import { downloadFile } from '../../stores/AdminFiles';
import { DateInput } from '../forms/DateInput';
import { type EnvControlStore } from '../../stores/EnvControlStore';
import { notifyError } from '../system/parts/notify';
import { useStores } from '../useStores';

/** A day of the date input as the instant it starts (or ends) in the browser's zone. */
const dayBound = (day: string, end: boolean): string =>
  day ? new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`).toISOString() : '';

/** Modify records' filters (house, user, parameter, dates, source) and the CSV export. */
export const RecordsFilters = observer(function RecordsFilters({
  store,
}: {
  store: EnvControlStore;
}) {
  const { t, i18n } = useTranslation();
  const stores = useStores();
  const language = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const [days, setDays] = useState({ from: '', to: '' });
  const f = store.recordFilters;
  const search = () => void store.loadRecords().catch(() => undefined);
  const setDay = (key: 'from' | 'to', day: string) => {
    setDays((d) => ({ ...d, [key]: day }));
    store.setRecordFilter(key, dayBound(day, key === 'to'));
  };
  const reset = () => {
    store.resetRecordFilters();
    setDays({ from: '', to: '' });
    search();
  };
  const exportCsv = async () => {
    const params = new URLSearchParams(
      Object.entries(store.recordsQuery).map(([k, v]) => [k, String(v)]),
    );
    try {
      await downloadFile(
        `/api/envcontrol/records/export?${params}`,
        { token: stores.session.token, locale: stores.ui.language },
        'modify-records.csv',
      );
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <div className="roost-envcontrol__filters" data-testid="records-filters">
      <FormGroup label={t('gatewayOps.records.house')} labelFor="records-house">
        <HTMLSelect
          id="records-house"
          value={f.allHouses ? 'all' : 'this'}
          onChange={(e) => store.setRecordFilter('allHouses', e.currentTarget.value === 'all')}
        >
          <option value="this">{t('gatewayOps.records.thisHouse')}</option>
          <option value="all">{t('gatewayOps.records.allHouses')}</option>
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('gatewayOps.records.operator')} labelFor="records-operator">
        <InputGroup
          id="records-operator"
          value={f.operator}
          onValueChange={(v) => store.setRecordFilter('operator', v)}
        />
      </FormGroup>
      <FormGroup label={t('gatewayOps.records.parameter')} labelFor="records-key">
        <HTMLSelect
          id="records-key"
          value={f.key}
          onChange={(e) => store.setRecordFilter('key', e.currentTarget.value)}
        >
          <option value="">{t('gatewayOps.records.any')}</option>
          {PARAMS.map((p) => (
            <option key={p.key} value={p.key}>
              {p.label[language]}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      {(['from', 'to'] as const).map((key) => (
        <FormGroup key={key} label={t(`gatewayOps.records.${key}`)} labelFor={`records-${key}`}>
          <DateInput id={`records-${key}`} value={days[key]} onChange={(day) => setDay(key, day)} />
        </FormGroup>
      ))}
      <FormGroup label={t('gatewayOps.records.source')} labelFor="records-source">
        <HTMLSelect
          id="records-source"
          value={f.source}
          onChange={(e) =>
            store.setRecordFilter('source', e.currentTarget.value as typeof f.source)
          }
        >
          <option value="">{t('gatewayOps.records.any')}</option>
          <option value="console">{t('envcontrol.records.sources.console')}</option>
          <option value="local">{t('envcontrol.records.sources.local')}</option>
        </HTMLSelect>
      </FormGroup>
      <div className="roost-envcontrol__filter-actions">
        <Button icon={<SearchIcon />} onClick={search} data-testid="records-search">
          {t('gatewayOps.records.search')}
        </Button>
        <Button onClick={reset}>{t('gatewayOps.records.reset')}</Button>
        <Button
          icon={<DownloadIcon />}
          onClick={() => void exportCsv()}
          data-testid="records-export"
        >
          {t('gatewayOps.records.export')}
        </Button>
        <span className="roost-envcontrol__hint" data-testid="records-total">
          {t('gatewayOps.records.total', { count: store.recordsTotal })}
        </span>
      </div>
    </div>
  );
});
