import { Card, Classes, H5, HTMLTable, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { type HousesStore } from '../../stores/HousesStore';
import { targetDeviation } from '../../stores/houseStatus';
import '../houses/houses.css';
import { alarmText, formatNumber, inTenThousands } from '../houses/format';
import { STATUS_INTENTS } from '../houses/HouseCard';
import { LiveIndicator } from '../houses/LiveIndicator';
import { useStores } from '../useStores';

/** How many houses the attention list shows. */
const ATTENTION_ROWS = 10;
const MONITOR_PATH = '/shack/status/monitor';

function summaryOf(houses: HousesStore) {
  let alive = 0;
  let alarms = 0;
  for (const house of houses.byId.values()) {
    alive += house.live.metrics['alive'] ?? house.headCount ?? 0;
    // Until the alarm engine's endpoints land, today's alarms are the open ones it reports.
    alarms += house.live.alarm.count;
  }
  return { alive, alarms };
}

const Stats = observer(function Stats() {
  const { houses } = useStores();
  const { t } = useTranslation();
  const counts = houses.counts;
  const { alive, alarms } = summaryOf(houses);
  const rate = counts.all === 0 ? 0 : (counts.alarm / counts.all) * 100;
  const stats: Array<[string, string, string]> = [
    ['total', t('houses.home.total'), String(counts.all)],
    ['online', t('houses.home.online'), String(counts.online)],
    ['offline', t('houses.home.offline'), String(counts.offline)],
    ['alarm', t('houses.home.alarm'), String(counts.alarm)],
    ['empty', t('houses.home.empty'), String(counts.empty)],
    ['rate', t('houses.home.alarmRate'), `${rate.toFixed(1)} %`],
    ['today', t('houses.home.todayAlarms'), String(alarms)],
    ['alive', t('houses.home.alive'), inTenThousands(alive)],
  ];
  return (
    <div className="roost-stat-grid">
      {stats.map(([key, label, value]) => (
        <Card key={key} className="roost-stat" data-testid={`stat-${key}`}>
          <div className={Classes.TEXT_MUTED}>{label}</div>
          <div className="roost-stat__value" data-testid="stat-value">
            {value}
          </div>
        </Card>
      ))}
    </div>
  );
});

const Attention = observer(function Attention() {
  const { houses } = useStores();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const list = houses.attention.slice(0, ATTENTION_ROWS);
  return (
    <Card>
      <H5>{t('houses.home.attention')}</H5>
      <HTMLTable compact interactive style={{ width: '100%' }} data-testid="attention">
        <tbody>
          {list.map((house) => {
            const dev = targetDeviation(house.live);
            const status = house.status;
            return (
              <tr
                key={house.houseId}
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
                    ? alarmText(i18n.language === 'zh' ? 'zh' : 'en', house.live.alarm.top)
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

/** Home (spec §2 dashboard, issue 5.1): the scope's houses at a glance, live. */
export function DashboardPage() {
  return (
    <div className="roost-page" data-testid="page-dashboard">
      <div className="roost-houses-toolbar">
        <LiveIndicator />
      </div>
      <Stats />
      <Attention />
    </div>
  );
}
