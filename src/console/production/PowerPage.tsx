import { useEffect, useMemo, useState } from 'react';
import { Card, Classes, FormGroup, H5 } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { PowerStore } from '../../stores/PowerStore';
import { LineChart, SERIES_COLORS } from '../houses/LineChart';
import { useStores } from '../useStores';
import { FarmHousePicker } from './FarmHousePicker';
import { ExportButtons } from './ExportButtons';
import { PowerMonthView } from './PowerMonthView';
import { todayIso } from './productionFormat';
import { figure, money } from '../../i18n/numbers';
import '../houses/houses.css';
import './production.css';
import { DateInput } from '../forms/DateInput';

/** /production/power: a farm's or a house's electricity hour by hour, peak and average, its cost. */
export const PowerPage = observer(function PowerPage() {
  const { t, i18n } = useTranslation();
  const { api } = useStores();
  const [store] = useState(() => new PowerStore(api, todayIso()));
  useEffect(() => void store.loadPlaces().catch(() => undefined), [store]);
  const power = store.power;
  const series = useMemo(
    () =>
      power
        ? [
            {
              key: 'kwh',
              label: t('production.power.kwh'),
              color: SERIES_COLORS[0]!,
              // The hour under way is left out: its kWh so far would read as a drop.
              points: power.hourly.map((y, x) => ({ x, y: x === power.runningHour ? null : y })),
            },
          ]
        : [],
    [power, t],
  );
  const metered =
    power?.hourly.filter((v, hour) => v !== null && hour !== power.runningHour).length ?? 0;
  const running = power?.runningHour ?? null;
  const runningKwh = running === null ? null : (power?.hourly[running] ?? null);
  const currency = power?.tariff?.currency ?? null;
  const cost = (value: number | null) =>
    currency === null ? t('production.power.noTariff') : money(value, currency, i18n.language);
  return (
    <div className="roost-production" data-testid="power">
      <div className="roost-production__bar">
        <FarmHousePicker
          id="power-place"
          label={t('production.power.place')}
          pick="farmOrHouse"
          places={store.places}
          value={store.target}
          onChange={(v) => void store.choose(v, store.day).catch(() => undefined)}
        />
        <FormGroup label={t('production.input.day')} labelFor="power-day">
          <DateInput
            id="power-day"
            value={store.day}
            max={todayIso()}
            onChange={(day) => day && void store.choose(store.target, day).catch(() => undefined)}
          />
        </FormGroup>
        <ExportButtons path={exportPath(store.target, store.day)} name={`power-${store.day}`} />
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
              value={cost(power.cost)}
              testId="power-cost"
            />
            {power.byPeriod &&
              (['peak', 'flat', 'valley'] as const).map((p) => (
                <Figure
                  key={p}
                  label={t(`production.power.period.${p}`)}
                  value={`${figure(power.byPeriod![p].kwh, 1)} kWh · ${cost(power.byPeriod![p].cost)}`}
                  testId={`power-period-${p}`}
                />
              ))}
          </div>
          <Card compact>
            <H5>{t('production.power.hourly')}</H5>
            {metered < 2 ? (
              <p className={Classes.TEXT_MUTED}>{t('production.flocks.chartError')}</p>
            ) : (
              <LineChart
                series={series}
                height={240}
                unit="kWh"
                formatX={(x) => `${x}:00`}
                data-testid="power-hourly"
              />
            )}
            {running !== null && runningKwh !== null && (
              <p className={Classes.TEXT_MUTED} data-testid="power-running">
                {t('production.power.runningHour', {
                  hour: `${String(running).padStart(2, '0')}:00`,
                  kwh: figure(runningKwh, 1),
                })}
              </p>
            )}
          </Card>
        </>
      )}
      {store.month && <PowerMonthView month={store.month} currency={currency} />}
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

/** The export URL of the chosen farm or house and day (`farm:3` → `farmId=3`). */
function exportPath(target: string, day: string): string | null {
  const [kind, id] = target.split(':');
  if (!id) return null;
  return `/production/power/export?${kind === 'house' ? 'houseId' : 'farmId'}=${id}&day=${day}`;
}
