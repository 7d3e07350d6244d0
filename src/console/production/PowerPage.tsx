import { useEffect, useMemo, useState } from 'react';
import { Card, Classes, FormGroup, H5, HTMLSelect } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { PowerStore } from '../../stores/PowerStore';
import { LineChart, SERIES_COLORS } from '../houses/LineChart';
import { useStores } from '../useStores';
import { figure, todayIso } from './productionFormat';
import '../houses/houses.css';
import './production.css';

/** /production/power: a farm's or a house's electricity hour by hour, peak and average, its cost. */
export const PowerPage = observer(function PowerPage() {
  const { t } = useTranslation();
  const { api } = useStores();
  const [store] = useState(() => new PowerStore(api, todayIso()));
  useEffect(() => void store.loadPlaces().catch(() => undefined), [store]);
  const farms = useMemo(
    () => [...new Map(store.places.map((p) => [p.farmId, p.farmName]))],
    [store.places],
  );
  const power = store.power;
  const series = useMemo(
    () =>
      power
        ? [
            {
              key: 'kwh',
              label: t('production.power.kwh'),
              color: SERIES_COLORS[0]!,
              points: power.hourly.map((y, x) => ({ x, y })),
            },
          ]
        : [],
    [power, t],
  );
  const metered = power?.hourly.filter((v) => v !== null).length ?? 0;
  return (
    <div className="roost-production" data-testid="power">
      <div className="roost-production__bar">
        <FormGroup label={t('production.power.place')} labelFor="power-place">
          <HTMLSelect
            id="power-place"
            value={store.target}
            onChange={(e) => void store.choose(e.target.value, store.day).catch(() => undefined)}
          >
            {farms.map(([farmId, farmName]) => (
              <optgroup key={farmId} label={farmName}>
                <option
                  value={`farm:${farmId}`}
                >{`${farmName} · ${t('production.power.allHouses')}`}</option>
                {store.places
                  .filter((p) => p.farmId === farmId)
                  .map((p) => (
                    <option key={p.houseId} value={`house:${p.houseId}`}>
                      {`${farmName} · ${p.houseName}`}
                    </option>
                  ))}
              </optgroup>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('production.input.day')} labelFor="power-day">
          <input
            id="power-day"
            type="date"
            className={Classes.INPUT}
            value={store.day}
            max={todayIso()}
            onChange={(e) =>
              e.target.value &&
              void store.choose(store.target, e.target.value).catch(() => undefined)
            }
          />
        </FormGroup>
      </div>
      {power && (
        <>
          <div className="roost-production__cards" data-testid="power-cards">
            <Figure
              label={t('production.power.total')}
              value={figure(power.kwh, 1)}
              testId="power-kwh"
            />
            <Figure
              label={t('production.power.peak')}
              value={figure(power.peakKw, 1)}
              testId="power-peak"
            />
            <Figure
              label={t('production.power.average')}
              value={figure(power.averageKw, 1)}
              testId="power-average"
            />
            <Figure
              label={t('production.power.cost')}
              value={power.cost === null ? t('production.power.noTariff') : figure(power.cost, 2)}
              testId="power-cost"
            />
            {power.byPeriod &&
              (['peak', 'flat', 'valley'] as const).map((p) => (
                <Figure
                  key={p}
                  label={t(`production.power.period.${p}`)}
                  value={`${figure(power.byPeriod![p].kwh, 1)} kWh · ${figure(power.byPeriod![p].cost, 2)}`}
                  testId={`power-${p}`}
                />
              ))}
          </div>
          <Card compact>
            <H5>{t('production.power.hourly')}</H5>
            {metered < 2 ? (
              <p className={Classes.TEXT_MUTED}>{t('production.flocks.chartError')}</p>
            ) : (
              <LineChart series={series} height={240} formatX={(x) => `${x}:00`} />
            )}
          </Card>
        </>
      )}
    </div>
  );
});

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card compact data-testid={testId}>
      <div className={Classes.TEXT_MUTED}>{label}</div>
      <div className="roost-production__stat">{value}</div>
    </Card>
  );
}
