import { Card, Classes, H5, HTMLTable, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { type AlarmToday } from '../../contract/alarms';
import { useNavigate } from 'react-router-dom';
import { type HousesStore } from '../../stores/HousesStore';
import { targetDeviation } from '../../stores/houseStatus';
import '../houses/houses.css';
import { alarmText } from '../houses/format';
import { aliveText, formatNumber, percent } from '../../i18n/numbers';
import { STATUS_INTENTS } from '../houses/HouseCard';
import { LiveIndicator } from '../houses/LiveIndicator';
import { RemindersPanel } from '../reminders/RemindersPanel';
import { useStores } from '../useStores';

/** How many houses the attention list shows. */
const ATTENTION_ROWS = 10;
const MONITOR_PATH = '/shack/status/monitor';

function aliveOf(houses: HousesStore): number {
  let alive = 0;
  for (const house of houses.byId.values())
    alive += house.live.metrics['alive'] ?? house.headCount ?? 0;
  return alive;
}

/** Today's alarms by cause, kept fresh by their store while the page shows them. */
function useAlarmsToday(): AlarmToday | null {
  const { alarmsToday } = useStores();
  useEffect(() => alarmsToday.watch(), [alarmsToday]);
  return alarmsToday.causes;
}

const Stats = observer(function Stats({ today }: { today: AlarmToday | null }) {
  const { houses } = useStores();
  const { t, i18n } = useTranslation();
  const counts = houses.counts;
  const alive = aliveOf(houses);
  const rate = counts.all === 0 ? 0 : (counts.alarm / counts.all) * 100;
  const todayTotal = today?.reduce((sum, c) => sum + c.count, 0);
  const stats: Array<[string, string, string]> = [
    ['total', t('houses.home.total'), String(counts.all)],
    ['online', t('houses.home.online'), String(counts.online)],
    ['offline', t('houses.home.offline'), String(counts.offline)],
    ['alarm', t('houses.home.alarm'), String(counts.alarm)],
    ['normal', t('houses.home.normal'), String(counts.normal)],
    ['empty', t('houses.home.empty'), String(counts.empty)],
    ['rate', t('houses.home.alarmRate'), percent(rate)],
    ['today', t('houses.home.todayAlarms'), todayTotal === undefined ? '—' : String(todayTotal)],
    ['alive', t('houses.home.alive'), aliveText(i18n.language, alive)],
  ];
  return (
    <div className="roost-stat-grid roost-home-stats">
      {stats.map(([key, label, value]) => (
        <Card key={key} className="roost-stat" data-testid={`stat-${key}`}>
          <div className={Classes.TEXT_MUTED}>{label}</div>
          <div
            className="roost-stat__value"
            data-testid="stat-value"
            style={{ '--chars': value.length } as CSSProperties}
          >
            {value}
          </div>
        </Card>
      ))}
    </div>
  );
});

/** Today's alarms by cause, most frequent first; only the causes that occurred. */
function TodayByCause({ today }: { today: AlarmToday | null }) {
  const { t } = useTranslation();
  const causes = (today ?? []).filter((c) => c.count > 0).sort((a, b) => b.count - a.count);
  return (
    <Card>
      <H5>{t('houses.home.todayByCause')}</H5>
      {causes.length === 0 ? (
        <p className={Classes.TEXT_MUTED} data-testid="today-none">
          {today === null ? '—' : t('houses.home.noAlarmsToday')}
        </p>
      ) : (
        <div className="roost-today" data-testid="today-alarms">
          {causes.map((c) => (
            <Tag key={c.cause} minimal intent="danger" data-testid={`today-${c.cause}`}>
              {t(`alarms.cause.${c.cause}`)}: {c.count}
            </Tag>
          ))}
        </div>
      )}
    </Card>
  );
}

const Attention = observer(function Attention() {
  const { houses } = useStores();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const list = houses.attention.slice(0, ATTENTION_ROWS);
  return (
    <Card>
      <H5>{t('houses.home.attention')}</H5>
      <HTMLTable
        compact
        interactive
        className="roost-attention"
        style={{ width: '100%' }}
        data-testid="attention"
      >
        <tbody>
          {list.map((house) => {
            const dev = targetDeviation(house.live);
            const status = house.status;
            return (
              <tr
                key={house.houseId}
                data-testid="attention-row"
                data-house-id={house.houseId}
                data-status={status}
                onClick={() => void navigate(`${MONITOR_PATH}?houseId=${house.houseId}`)}
              >
                <td>
                  <Tag minimal intent={STATUS_INTENTS[status]}>
                    {t(`houses.status.${status}`)}
                  </Tag>
                </td>
                <td>{house.houseName}</td>
                <td className={Classes.TEXT_MUTED}>{house.farmName}</td>
                <td>
                  {status === 'alarm'
                    ? alarmText(t, i18n.language === 'zh' ? 'zh' : 'en', house.live.alarm.top)
                    : dev === null
                      ? ''
                      : t('houses.home.deviation', { value: formatNumber(dev) })}
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </Card>
  );
});

/** Home: the scope's houses at a glance, live. */
export const DashboardPage = observer(function DashboardPage() {
  const today = useAlarmsToday();
  return (
    <div className="roost-page" data-testid="page-dashboard">
      <div className="roost-houses-toolbar">
        <LiveIndicator />
      </div>
      <Stats today={today} />
      <div className="roost-home">
        <Attention />
        <div className="roost-home__side">
          <TodayByCause today={today} />
          <RemindersPanel />
        </div>
      </div>
    </div>
  );
});
