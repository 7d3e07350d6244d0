import { Card, Classes, H5, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { deviceTypeOf, METRICS, metricLabel } from '../../../contract/metrics';
import { gatewayTypeName } from '../../../contract/gatewayTypes';
import { type House } from '../../../stores/HousesStore';
import { formatTime, metricText, modeText } from '../format';
import { formatNumber, percent } from '../../../i18n/numbers';

/** Set-points shown beside a sensor (dotted lines on its chart). */
const SET_POINTS: Record<string, string> = { temperature: 'temperature_target' };
const HIDDEN = new Set([
  'temperature_target',
  'water',
  'feed',
  'power',
  'alive',
  'deaths',
  'eggs',
  'ventilation_level',
]);

export const SensorsCard = observer(function SensorsCard({ house }: { house: House }) {
  const { t, i18n } = useTranslation();
  const { metrics, faults } = house.live;
  const keys = METRICS.map((m) => m.key).filter(
    (k) => !HIDDEN.has(k) && (k in metrics || k in faults),
  );
  return (
    <Card className="roost-monitor__wide" data-testid="monitor-sensors">
      <H5>{t('houses.monitor.sensors')}</H5>
      {keys.length === 0 && <p className={Classes.TEXT_MUTED}>{t('houses.fresh.never')}</p>}
      <div className="roost-stat-grid">
        {keys.map((key) => {
          const m = metricText(t, key, metrics, faults);
          const setPoint = SET_POINTS[key] ? metrics[SET_POINTS[key]] : undefined;
          return (
            <div key={key} data-testid={`sensor-${key}`}>
              <div className={Classes.TEXT_MUTED}>
                {metricLabel(key, i18n.language === 'zh' ? 'zh' : 'en')}
              </div>
              <div
                className={`roost-stat__value${m.fault ? (m.fault === 'error' ? ' roost-fault--error' : ' roost-fault--other') : ''}`}
                style={{ fontSize: 20 }}
              >
                {m.text}
              </div>
              {setPoint !== undefined && (
                <div className={Classes.TEXT_SMALL}>
                  {t('houses.monitor.setPoint', { value: `${formatNumber(setPoint)} ℃` })}
                </div>
              )}
            </div>
          );
        })}
      </div>
    </Card>
  );
});

export const DevicesCard = observer(function DevicesCard({ house }: { house: House }) {
  const { t } = useTranslation();
  const devices = Object.entries(house.live.devices).sort(([a], [b]) =>
    a.localeCompare(b, undefined, { numeric: true }),
  );
  return (
    <Card data-testid="monitor-devices">
      <H5>{t('houses.monitor.devices')}</H5>
      <div className="roost-house-card__grid" style={{ fontSize: 13 }}>
        <span className={Classes.TEXT_MUTED}>{t('houses.card.mode')}</span>
        <span style={{ gridColumn: 'span 2' }} data-testid="monitor-mode">
          {modeText(t, house.live.mode)}
        </span>
        <span className={Classes.TEXT_MUTED}>{t('houses.card.ventilation')}</span>
        <span style={{ gridColumn: 'span 2' }}>
          {metricText(t, 'ventilation_level', house.live.metrics, house.live.faults).text}
        </span>
      </div>
      {devices.length === 0 && (
        <p className={Classes.TEXT_MUTED}>{t('houses.monitor.noDevices')}</p>
      )}
      <div className="roost-monitor__list" style={{ marginTop: 8 }}>
        {devices.map(([key, device]) => {
          const type = deviceTypeOf(key);
          const n = key.split('_').at(-1);
          return [
            <span key={`${key}-n`}>{type ? `${t(`houses.device.${type}`)} ${n}` : key}</span>,
            <Tag
              key={`${key}-s`}
              minimal
              intent={device.state === 3 ? 'danger' : device.state === 0 ? 'none' : 'success'}
            >
              {/* The opening degree replaces the state when present. */}
              {device.opening !== undefined
                ? `${formatNumber(device.opening)} %`
                : t(`houses.deviceState.s${device.state}` as 'houses.deviceState.s0')}
            </Tag>,
          ];
        })}
      </div>
    </Card>
  );
});

export const FlockCard = observer(function FlockCard({ house }: { house: House }) {
  const { t, i18n } = useTranslation();
  const zh = i18n.language === 'zh';
  const m = house.live.metrics;
  const alive = m['alive'] ?? house.headCount;
  const mortality =
    house.headCount && alive !== null && alive !== undefined
      ? (1 - alive / house.headCount) * 100
      : null;
  const usage = (key: string) => metricText(t, key, m, house.live.faults).text;
  return (
    <Card data-testid="monitor-flock">
      <H5>{t('houses.monitor.flock')}</H5>
      <div className="roost-monitor__list">
        <span>{t('houses.monitor.breed')}</span>
        <span>{house.breedName ?? '—'}</span>
        <span>{t('houses.card.age')}</span>
        <span>
          {house.ageDays === null ? '—' : t('houses.card.ageDays', { count: house.ageDays })}
        </span>
        <span>{t('houses.card.alive')}</span>
        <span>{alive === null || alive === undefined ? '—' : formatNumber(alive)}</span>
        <span>{t('houses.monitor.mortality')}</span>
        <span>{percent(mortality, 2)}</span>
      </div>
      <H5 style={{ marginTop: 12 }}>{t('houses.monitor.usage')}</H5>
      <div className="roost-monitor__list">
        {(['water', 'power', 'feed'] as const).map((key) => [
          <span key={`${key}-l`}>{metricLabel(key, zh ? 'zh' : 'en')}</span>,
          <span key={`${key}-v`}>{usage(key)}</span>,
        ])}
      </div>
    </Card>
  );
});

export const GatewayCard = observer(function GatewayCard({ house }: { house: House }) {
  const { t, i18n } = useTranslation();
  const { live } = house;
  return (
    <Card data-testid="monitor-gateway">
      <H5>{t('houses.monitor.gateway')}</H5>
      <div className="roost-monitor__list">
        <span>{t('houses.monitor.gatewayType')}</span>
        <span>
          {house.gatewayType === null ? '—' : gatewayTypeName(house.gatewayType, i18n.language)}
        </span>
        <span>{t('houses.monitor.version')}</span>
        <span>{live.gatewayVersion ?? '—'}</span>
        <span>{t('houses.status.online')}</span>
        <span>{t(live.online ? 'houses.status.online' : 'houses.status.offline')}</span>
        <span>{t('houses.monitor.onlineSince')}</span>
        <span>{live.onlineSince ? formatTime(Date.parse(live.onlineSince)) : '—'}</span>
        <span>{t('houses.monitor.network')}</span>
        <span>{live.network ? t(`houses.monitor.${live.network}`) : '—'}</span>
      </div>
    </Card>
  );
});
