import { useEffect } from 'react';
import { Button, HTMLSelect, NonIdealState } from '@blueprintjs/core';
import { SettingsIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { type TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PARAM_GROUPS, paramsOfType } from '../../contract/envcontrol';
import {
  DEVICE_STATES,
  deviceTypeOf,
  METRIC_GROUPS,
  METRICS,
  metricLabel,
  type DeviceState,
} from '../../contract/metrics';
import { metricText, modeText } from '../houses/format';
import { useStores } from '../useStores';
import { formatTime, paramValue } from './format';
import { AI6000_TYPE } from './ai6000Type';
import './ai6000.css';

/**
 * /envcontrol/ai6000: the AI6000 controller's own dashboard, for a wall or a large screen:
 * everything the device reports (every metric, its probes, its outputs), live, beside the
 * parameters it holds and its gateway's state. Read only; changes are made in House Setting.
 */
export const Ai6000Page = observer(function Ai6000Page() {
  const { t, i18n } = useTranslation();
  const language = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const { houses, envcontrol: store } = useStores();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const choices = houses.all.filter((h) => h.gatewayType === AI6000_TYPE);
  const raw = Number(params.get('houseId'));
  const houseId = Number.isInteger(raw) && raw > 0 ? raw : (choices[0]?.houseId ?? null);

  useEffect(() => {
    if (houseId === null) return;
    const leave = houses.follow(houseId);
    void store.load(houseId).catch(() => undefined);
    return leave;
  }, [houses, store, houseId]);

  const house = houseId === null ? undefined : houses.get(houseId);
  const details = store.houseId === houseId ? store.details : null;
  if (!house) {
    return (
      <div className="roost-page" data-testid="page-ai6000">
        <NonIdealState title={t('gatewayOps.ai6000.none')} />
      </div>
    );
  }
  const live = house.live;
  const reported = new Set([...Object.keys(live.metrics), ...Object.keys(live.faults)]);
  const groups = METRIC_GROUPS.map((group) => ({
    group,
    metrics: METRICS.filter((m) => m.group === group && reported.has(m.key)),
  })).filter((g) => g.metrics.length > 0);
  const devices = Object.entries(live.devices).sort(([a], [b]) => a.localeCompare(b));
  const specs = paramsOfType(AI6000_TYPE);
  const values = details?.params ?? {};

  return (
    <div className="roost-page roost-ai6000" data-testid="page-ai6000">
      <header className="roost-ai6000__head">
        <div>
          <h1 data-testid="ai6000-title">
            {house.farmName} / {house.houseName}
          </h1>
          <p>
            AI6000 · {t('gatewayOps.ai6000.version', { version: live.gatewayVersion ?? '—' })} ·{' '}
            <span
              className={live.online ? 'roost-ai6000__on' : 'roost-ai6000__off'}
              data-testid="ai6000-online"
            >
              {t(live.online ? 'envcontrol.gateway.online' : 'envcontrol.gateway.offline')}
            </span>{' '}
            · {t('gatewayOps.ai6000.mode', { mode: modeText(t, live.mode) })} ·{' '}
            {t('gatewayOps.ai6000.age', { days: house.ageDays ?? '—' })} ·{' '}
            {t('gatewayOps.ai6000.updated', {
              when: live.lastTs ? formatTime(live.lastTs) : '—',
            })}
          </p>
        </div>
        <div className="roost-ai6000__tools">
          {choices.length > 1 && (
            <HTMLSelect
              aria-label={t('gatewayOps.ai6000.pick')}
              value={houseId ?? ''}
              onChange={(e) => setParams({ houseId: e.currentTarget.value })}
            >
              {choices.map((h) => (
                <option key={h.houseId} value={h.houseId}>
                  {h.farmName} / {h.houseName}
                </option>
              ))}
            </HTMLSelect>
          )}
          <Button
            icon={<SettingsIcon />}
            onClick={() => void navigate(`/envcontrol/index?houseId=${house.houseId}`)}
          >
            {t('gatewayOps.ai6000.settings')}
          </Button>
        </div>
      </header>
      {groups.length === 0 && <p>{t('gatewayOps.ai6000.noReadings')}</p>}
      {groups.map(({ group, metrics }) => (
        <section key={group} className="roost-ai6000__section">
          <h2>{t(`gatewayOps.ai6000.groups.${group}`)}</h2>
          <div className="roost-ai6000__tiles">
            {metrics.map((m) => {
              const value = metricText(t, m.key, live.metrics, live.faults);
              return (
                <div
                  key={m.key}
                  className={`roost-ai6000__tile${value.fault ? ' roost-ai6000__tile--fault' : ''}`}
                  data-testid={`ai6000-metric-${m.key}`}
                >
                  <span>{metricLabel(m.key, language)}</span>
                  <strong>{value.text}</strong>
                </div>
              );
            })}
          </div>
        </section>
      ))}
      {devices.length > 0 && (
        <section className="roost-ai6000__section">
          <h2>{t('gatewayOps.ai6000.outputs')}</h2>
          <div className="roost-ai6000__devices">
            {devices.map(([key, device]) => (
              <span
                key={key}
                className={`roost-ai6000__device roost-ai6000__device--${stateOf(device.state)}`}
                data-testid="ai6000-device"
              >
                {deviceName(t, key)}: {t(`houses.deviceState.s${stateOf(device.state)}`)}
                {device.opening !== undefined ? ` ${device.opening}%` : ''}
              </span>
            ))}
          </div>
        </section>
      )}
      <section className="roost-ai6000__section">
        <h2>{t('gatewayOps.ai6000.parameters')}</h2>
        <div className="roost-ai6000__params">
          {PARAM_GROUPS.map((group) => {
            const list = specs.filter((s) => s.group === group);
            return (
              <div key={group} className="roost-ai6000__param-group">
                <h3>{t(`envcontrol.params.group.${group}`)}</h3>
                <dl>
                  {list.map((s) => (
                    <div key={s.key} data-testid={`ai6000-param-${s.key}`}>
                      <dt>{s.label[language]}</dt>
                      <dd>{paramValue(s.key, values[s.key])}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            );
          })}
        </div>
      </section>
    </div>
  );
});

/** A device state the contract knows (0 off, 1 on, 2 reverse, 3 error); anything else is an error. */
const stateOf = (state: number): DeviceState =>
  (DEVICE_STATES as readonly number[]).includes(state) ? (state as DeviceState) : 3;

/** `fan_3` → "Fan 3" in the page's language. */
function deviceName(t: TFunction, key: string): string {
  const type = deviceTypeOf(key);
  const n = key.split('_').at(-1) ?? '';
  return type ? `${t(`houses.device.${type}`)} ${n}` : key;
}
