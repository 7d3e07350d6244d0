import { Card, Classes, H5, Tag } from '@blueprintjs/core';
import { reaction, runInAction } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type House } from '../../../stores/HousesStore';
import { AcknowledgeButton } from '../../alarms/AcknowledgeButton';
import { alarmDetail, formatTime } from '../format';
import { fetchOpenAlarms } from '../../../stores/houseQueries';
import { useStores } from '../../useStores';

const SEVERITY_INTENT = { critical: 'danger', major: 'warning', minor: 'none' } as const;

/**
 * Loads the house's open alarms into the alarm store, and again whenever the house's open count
 * changes: live alarm events keep the store current, but while polling only the count moves.
 */
function useOpenAlarms(house: House): void {
  const { api, alarms } = useStores();
  useEffect(() => {
    let cancelled = false;
    const load = () =>
      void fetchOpenAlarms(api, house.houseId)
        .then((rows) => {
          if (cancelled) return;
          runInAction(() => {
            // An alarm the store still holds as open but the server no longer lists has ended.
            const listed = new Set(rows.map((a) => a.id));
            for (const a of alarms.openOf(house.houseId))
              if (!listed.has(a.id)) alarms.upsert({ ...a, state: 'cleared' });
            for (const a of rows) alarms.upsert(a);
          });
        })
        .catch(() => undefined);
    load();
    const dispose = reaction(() => house.live.alarm.count, load);
    return () => {
      cancelled = true;
      dispose();
    };
  }, [api, alarms, house]);
}

/** The house's active and acknowledged alarms, each with its acknowledge action (canOperate). */
export const AlarmsCard = observer(function AlarmsCard({ house }: { house: House }) {
  const { t, i18n } = useTranslation();
  const { alarms } = useStores();
  useOpenAlarms(house);
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const open = alarms
    .openOf(house.houseId)
    .sort((a, b) => b.raisedAt.localeCompare(a.raisedAt) || b.id - a.id);
  return (
    <Card className="roost-monitor__wide" data-testid="monitor-alarms">
      <H5>{t('houses.monitor.alarms')}</H5>
      {open.length === 0 ? (
        <p className={Classes.TEXT_MUTED} data-testid="monitor-no-alarm">
          {t('houses.monitor.noAlarms')}
        </p>
      ) : (
        <div className="roost-monitor-alarms">
          {open.map((alarm) => (
            <div
              key={alarm.id}
              className="roost-monitor-alarms__row"
              data-testid="monitor-alarm"
              data-state={alarm.state}
            >
              <Tag minimal intent={SEVERITY_INTENT[alarm.severity]}>
                {t(`alarms.severity.${alarm.severity}`)}
              </Tag>
              <span className="roost-monitor-alarms__text">
                <strong>{t(`alarms.cause.${alarm.cause}`)}</strong> {alarmDetail(t, lang, alarm)}
              </span>
              <span className={Classes.TEXT_MUTED}>{formatTime(Date.parse(alarm.raisedAt))}</span>
              {alarm.state === 'acknowledged' ? (
                <Tag minimal title={alarm.ackComment ?? undefined}>
                  {t('alarms.state.acknowledged')}
                  {alarm.acknowledgedBy ? ` · ${alarm.acknowledgedBy}` : ''}
                </Tag>
              ) : (
                <AcknowledgeButton alarm={alarm} small />
              )}
            </div>
          ))}
        </div>
      )}
    </Card>
  );
});
