import { useEffect, useState } from 'react';
import { Button, Classes, FormGroup, HTMLSelect, Intent, Tag } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  ALARM_CAUSES,
  ALARM_LIST_STATES,
  ALARM_SEVERITIES,
  MANUALLY_CLEARABLE,
  alarmPlaceSchema,
  type Alarm,
  type AlarmListQuery,
  type AlarmPlace,
} from '../../contract/alarms';
import { showSuccessToast } from '../toaster';
import { useStores } from '../useStores';
import { AcknowledgeButton } from './AcknowledgeButton';
import { alarmConcern, CODED_VALUE_CAUSES } from '../../contract/alarmWords';
import { ListTable } from '../ListTable';
import { formatTime, formatValue } from './format';
import './alarms.css';
import { DateInput } from '../forms/DateInput';

const SEVERITY_INTENT = {
  critical: Intent.DANGER,
  major: Intent.WARNING,
  minor: Intent.NONE,
} as const;

/** The list's columns, by their heading's key under `alarms.list`. */
const COLUMNS = [
  'severity',
  'farm',
  'house',
  'cause',
  'value',
  'state',
  'raisedAt',
  'acknowledged',
  'clearedAt',
  'occurrences',
  'actions',
] as const;

/** A date field's value (`2026-11-23T14:03`, local time) → ISO, or undefined. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** /alarm/list: current and past alarms in the user's scope, with filters and acknowledge. */
export const AlarmListPage = observer(function AlarmListPage() {
  const { t } = useTranslation();
  const { api, alarms } = useStores();
  const [places, setPlaces] = useState<AlarmPlace[]>([]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const q = alarms.query;

  useEffect(() => {
    void alarms.load(api, 1).catch(() => undefined);
    api
      .get('/alarm/places', { schema: z.array(alarmPlaceSchema) })
      .then(setPlaces)
      .catch(() => undefined);
  }, [api, alarms]);

  // A change of the open count means alarms came or went: show them (the same REST path as a
  // reconnect's snapshot, so the list never drifts from the badge).
  const count = alarms.activeCount;
  useEffect(() => {
    if (alarms.loaded) void alarms.load(api).catch(() => undefined);
  }, [api, alarms, count]);

  const farms = [...new Map(places.map((p) => [p.farmId, p.farmName]))];
  const houses = places.filter((p) => !q.farmId || p.farmId === Number(q.farmId));
  const set = (patch: Partial<AlarmListQuery>) => alarms.setQuery(patch);
  const search = () => {
    set({ from: isoOf(from), to: isoOf(to) });
    void alarms.load(api, 1).catch(() => undefined);
  };
  const size = Number(q.size ?? 20);
  const pages = Math.max(1, Math.ceil(alarms.total / size));
  const page = Number(q.page ?? 1);

  return (
    <div className="roost-page roost-alarms" data-testid="page-alarm-list">
      <div className="roost-alarms__bar">
        <FormGroup label={t('alarms.list.farm')} labelFor="alarm-farm">
          <HTMLSelect
            id="alarm-farm"
            value={String(q.farmId ?? '')}
            onChange={(e) =>
              set({
                farmId: e.target.value ? Number(e.target.value) : undefined,
                houseId: undefined,
              })
            }
          >
            <option value="">{t('alarms.list.all')}</option>
            {farms.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('alarms.list.house')} labelFor="alarm-house">
          <HTMLSelect
            id="alarm-house"
            value={String(q.houseId ?? '')}
            onChange={(e) => set({ houseId: e.target.value ? Number(e.target.value) : undefined })}
          >
            <option value="">{t('alarms.list.all')}</option>
            {houses.map((h) => (
              <option key={h.houseId} value={h.houseId}>{`${h.farmName} · ${h.houseName}`}</option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('alarms.list.cause')} labelFor="alarm-cause">
          <HTMLSelect
            id="alarm-cause"
            value={q.cause ?? ''}
            onChange={(e) =>
              set({ cause: (e.target.value || undefined) as AlarmListQuery['cause'] })
            }
          >
            <option value="">{t('alarms.list.all')}</option>
            {ALARM_CAUSES.map((c) => (
              <option key={c} value={c}>
                {t(`alarms.cause.${c}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('alarms.list.severity')} labelFor="alarm-severity">
          <HTMLSelect
            id="alarm-severity"
            value={q.severity ?? ''}
            onChange={(e) =>
              set({ severity: (e.target.value || undefined) as AlarmListQuery['severity'] })
            }
          >
            <option value="">{t('alarms.list.all')}</option>
            {ALARM_SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {t(`alarms.severity.${s}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('alarms.list.state')} labelFor="alarm-state">
          <HTMLSelect
            id="alarm-state"
            value={q.state ?? 'open'}
            onChange={(e) => set({ state: e.target.value as AlarmListQuery['state'] })}
          >
            {ALARM_LIST_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`alarms.state.${s}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('alarms.list.from')} labelFor="alarm-from">
          <DateInput id="alarm-from" withTime value={from} onChange={setFrom} />
        </FormGroup>
        <FormGroup label={t('alarms.list.to')} labelFor="alarm-to">
          <DateInput id="alarm-to" withTime value={to} onChange={setTo} />
        </FormGroup>
        <Button
          intent={Intent.PRIMARY}
          icon={<SearchIcon />}
          text={t('alarms.list.search')}
          data-testid="alarm-search"
          onClick={search}
        />
      </div>
      {/* On a phone the table scrolls inside its region, and its actions column stays in view. */}
      <ListTable
        label={t('route.alarmList')}
        scrollClassName="roost-alarms__scroll"
        className="roost-alarms__table roost-alarms__list"
        headers={COLUMNS.map((c) => t(`alarms.list.${c}`))}
        message={alarms.loaded && alarms.rows.length === 0 ? t('alarms.list.empty') : null}
      >
        {alarms.rows.map((a) => (
          <AlarmRowView key={a.id} alarm={a} />
        ))}
      </ListTable>
      <div className="roost-alarms__pager">
        <span className={Classes.TEXT_MUTED}>
          {t('alarms.list.total', { count: alarms.total })}
        </span>
        <Button
          variant="minimal"
          disabled={page <= 1}
          text={t('alarms.list.previous')}
          onClick={() => void alarms.load(api, page - 1).catch(() => undefined)}
        />
        <span>{`${page} / ${pages}`}</span>
        <Button
          variant="minimal"
          disabled={page >= pages}
          text={t('alarms.list.next')}
          onClick={() => void alarms.load(api, page + 1).catch(() => undefined)}
        />
      </div>
    </div>
  );
});

const AlarmRowView = observer(function AlarmRowView({ alarm: a }: { alarm: Alarm }) {
  const { t, i18n } = useTranslation();
  const { api, alarms, session } = useStores();
  // A threshold's subject is its metric, which the cause already names; its value and limit
  // have a column of their own.
  const subject = a.limit === null ? alarmConcern(a, i18n.language) : '';
  const clear = async () => {
    try {
      await alarms.clear(api, a.id);
      showSuccessToast(t('alarms.ack.cleared'));
    } catch {
      // Shown by the API client.
    }
  };
  return (
    <tr data-testid={`alarm-${a.id}`} data-state={a.state}>
      <td>
        <Tag intent={SEVERITY_INTENT[a.severity]} minimal={a.severity === 'minor'}>
          {t(`alarms.severity.${a.severity}`)}
        </Tag>
      </td>
      <td>{a.farmName}</td>
      <td>{a.houseName}</td>
      <td>
        {t(`alarms.cause.${a.cause}`)}
        {subject && <span className={Classes.TEXT_MUTED}>{` · ${subject}`}</span>}
      </td>
      <td className="roost-alarms__nowrap">
        {/* A device's state is a code the subject says in words. */}
        {CODED_VALUE_CAUSES.has(a.cause) ? '' : formatValue(a.value, a.limit)}
      </td>
      <td className="roost-alarms__nowrap">
        {t(`alarms.state.${a.state}`)}
        {a.silenced && (
          <Tag minimal className="roost-alarms__silenced" data-testid="alarm-silenced">
            {t('notify.silences.marked')}
          </Tag>
        )}
      </td>
      <td>{formatTime(a.raisedAt)}</td>
      <td>
        {a.acknowledgedAt && `${formatTime(a.acknowledgedAt)} ${a.acknowledgedBy ?? ''}`}
        {a.ackComment && <div className={Classes.TEXT_MUTED}>{a.ackComment}</div>}
      </td>
      <td>
        {a.clearedAt &&
          `${formatTime(a.clearedAt)}${a.clearedBy === 'user' ? ` (${t('alarms.list.byUser')})` : ''}`}
      </td>
      <td>{a.occurrences}</td>
      <td className="roost-alarms__actions">
        <AcknowledgeButton alarm={a} small />
        {session.canOperate && a.state !== 'cleared' && MANUALLY_CLEARABLE.includes(a.cause) && (
          <Button
            size="small"
            variant="minimal"
            text={t('alarms.ack.clear')}
            onClick={() => void clear()}
          />
        )}
      </td>
    </tr>
  );
});
