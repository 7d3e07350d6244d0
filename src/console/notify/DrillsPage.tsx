import { Button, Card, FormGroup, H3, H5, HTMLSelect, Intent, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { DrillsStore } from '../../stores/NotifyStores';
import { formatTime } from '../alarms/format';
import { showSuccessToast } from '../toaster';
import { ListTable } from '../ListTable';
import { useStores } from '../useStores';
import { DrillReportView } from './DrillReportView';
import './notify.css';
import { TimeInput } from '../forms/TimeInput';

type ToastKey = 'notify.drills.started' | 'notify.drills.weekly' | 'notify.drills.scheduleNone';
/** Weekday numbers as the server counts them (0 = Sunday) and their text keys. */
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/**
 * /alarm/drills (administrators): start a drill for a house now or weekly, see the drills so
 * far, and open one's report (`?drill=<id>`), which says who did not confirm and exports as CSV.
 */
export const DrillsPage = observer(function DrillsPage() {
  const { t } = useTranslation();
  const { api, session } = useStores();
  // Drills call the alarm phones: an operating action (README "Roles and the operation permission").
  const operate = session.canOperate;
  const [store] = useState(() => new DrillsStore(api));
  const [params, setParams] = useSearchParams();
  const [houseId, setHouseId] = useState(0);
  const [weekday, setWeekday] = useState(1);
  const [time, setTime] = useState('10:00');
  const [busy, setBusy] = useState(false);
  const drillId = Number(params.get('drill')) || null;
  useEffect(() => void store.load().catch(() => undefined), [store]);
  useEffect(() => void store.openReport(drillId).catch(() => undefined), [store, drillId]);
  const house = houseId || store.places[0]?.houseId || 0;
  const schedule = store.schedules.find((s) => s.houseId === house);
  const farms = useMemo(
    () => [...new Map(store.places.map((p) => [p.farmId, p.farmName]))],
    [store.places],
  );
  const done = (key: ToastKey) => showSuccessToast(t(key));
  const run = async (what: () => Promise<unknown>, key: ToastKey) => {
    setBusy(true);
    try {
      await what();
      done(key);
    } catch {
      // The client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  if (drillId !== null)
    return <DrillReportView report={store.report} onBack={() => setParams({})} />;

  return (
    <div className="roost-notify" data-testid="drills-page">
      <H3>{t('notify.drills.title')}</H3>
      <p className="roost-notify__muted">{t('notify.drills.intro')}</p>
      <Card compact>
        <div className="roost-notify__form">
          <FormGroup label={t('notify.drills.house')} labelFor="drill-house">
            <HTMLSelect
              id="drill-house"
              value={house}
              onChange={(e) => setHouseId(Number(e.target.value))}
            >
              {farms.map(([farmId, farmName]) => (
                <optgroup key={farmId} label={farmName}>
                  {store.places
                    .filter((p) => p.farmId === farmId)
                    .map((p) => (
                      <option
                        key={p.houseId}
                        value={p.houseId}
                      >{`${farmName} · ${p.houseName}`}</option>
                    ))}
                </optgroup>
              ))}
            </HTMLSelect>
          </FormGroup>
          <Button
            intent={Intent.DANGER}
            icon="notifications"
            loading={busy}
            disabled={!house || !operate}
            data-testid="drill-start"
            onClick={() => void run(() => store.start(house), 'notify.drills.started')}
          >
            {t('notify.drills.start')}
          </Button>
        </div>
      </Card>
      <Card compact>
        <H5>{t('notify.drills.weekly')}</H5>
        <p className="roost-notify__muted" data-testid="drill-schedule">
          {schedule
            ? t('notify.drills.scheduleIs', {
                day: t(`notify.common.weekday.${WEEKDAYS[schedule.weekday] ?? 'sun'}`),
                time: schedule.time,
              })
            : t('notify.drills.scheduleNone')}
        </p>
        <div className="roost-notify__form">
          <FormGroup label={t('notify.drills.weekday')} labelFor="drill-weekday">
            <HTMLSelect
              id="drill-weekday"
              value={weekday}
              onChange={(e) => setWeekday(Number(e.target.value))}
            >
              {[1, 2, 3, 4, 5, 6, 0].map((d) => (
                <option key={d} value={d}>
                  {t(`notify.common.weekday.${WEEKDAYS[d] ?? 'sun'}`)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('notify.drills.time')} labelFor="drill-time">
            <TimeInput id="drill-time" value={time} onChange={setTime} />
          </FormGroup>
          <Button
            disabled={!house || busy || !operate}
            onClick={() =>
              void run(
                () => store.schedule({ houseId: house, weekday, time }),
                'notify.drills.weekly',
              )
            }
          >
            {t('notify.drills.scheduleSave')}
          </Button>
          {schedule && (
            <Button
              minimal
              intent={Intent.DANGER}
              disabled={busy || !operate}
              onClick={() =>
                void run(
                  () => store.schedule({ houseId: house, weekday: null }),
                  'notify.drills.scheduleNone',
                )
              }
            >
              {t('notify.drills.scheduleOff')}
            </Button>
          )}
        </div>
      </Card>
      <H5>{t('notify.drills.list')}</H5>
      <ListTable
        label={t('notify.drills.list')}
        scrollClassName="roost-notify__scroll"
        testId="drill-list"
        interactive
        headers={[
          t('notify.drills.when'),
          t('notify.drills.house'),
          t('notify.drills.by'),
          t('notify.drills.confirmed'),
          '',
        ]}
        message={store.drills?.length === 0 ? t('notify.common.none') : null}
      >
        {store.drills?.map((d) => (
          <tr key={d.id} data-testid={`drill-${d.id}`}>
            <td>
              {formatTime(d.startedAt)}{' '}
              {d.scheduled && <Tag minimal>{t('notify.drills.scheduled')}</Tag>}
            </td>
            <td>{`${d.farmName} · ${d.houseName}`}</td>
            <td>{d.startedBy}</td>
            <td>
              <Tag minimal intent={d.confirmed === d.people ? Intent.SUCCESS : Intent.WARNING}>
                {`${d.confirmed} / ${d.people}`}
              </Tag>
              {d.notDelivered > 0 && (
                // Nobody left to wait for: the drill has ended, and says who it never reached.
                <Tag minimal intent={Intent.DANGER} data-testid={`drill-${d.id}-not-delivered`}>
                  {`${t('notify.drills.notDelivered', { count: d.notDelivered })}${d.confirmed + d.notDelivered === d.people ? ` · ${t('notify.drills.ended')}` : ''}`}
                </Tag>
              )}
            </td>
            <td>
              <Button
                small
                minimal
                icon="document"
                onClick={() => setParams({ drill: String(d.id) })}
              >
                {t('notify.drills.open')}
              </Button>
            </td>
          </tr>
        ))}
      </ListTable>
    </div>
  );
});
