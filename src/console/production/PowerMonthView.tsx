import { Card, Classes, H5 } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type PowerMonth } from '../../contract/productionPower';
import { LineChart, SERIES_COLORS } from '../houses/LineChart';
import { figure } from '../../i18n/numbers';

/** The chosen day's month: its electricity day by day, peak and average, cost, per bird and per kg. */
export function PowerMonthView({ month }: { month: PowerMonth }) {
  const { t } = useTranslation();
  const series = useMemo(
    () => [
      {
        key: 'kwh',
        label: t('production.power.kwh'),
        color: SERIES_COLORS[0]!,
        points: month.days.map((d) => ({ x: Number(d.day.slice(8)), y: d.kwh })),
      },
    ],
    [month, t],
  );
  const metered = month.days.filter((d) => d.kwh !== null).length;
  const figures: Array<[string, string, string]> = [
    ['month-kwh', t('production.power.monthTotal'), figure(month.kwh, 1)],
    [
      'month-cost',
      t('production.power.cost'),
      month.cost === null ? t('production.power.noTariff') : figure(month.cost, 2),
    ],
    ['month-peak', t('production.power.peak'), figure(month.peakKw, 1)],
    ['month-average', t('production.power.average'), figure(month.averageKw, 1)],
    ['month-bird', t('production.power.perBird'), figure(month.kwhPerBird, 3)],
    ['month-kg', t('production.power.perKg'), figure(month.kwhPerKg, 3)],
  ];
  return (
    <section className="roost-production__month" data-testid="power-month">
      <H5>{t('production.power.month', { month: month.month })}</H5>
      <div className="roost-production__cards">
        {figures.map(([testId, label, value]) => (
          <Card compact key={testId} data-testid={testId}>
            <div className={Classes.TEXT_MUTED}>{label}</div>
            <div className="roost-production__stat">{value}</div>
          </Card>
        ))}
      </div>
      <Card compact>
        <H5>{t('production.power.daily')}</H5>
        {metered < 2 ? (
          <p className={Classes.TEXT_MUTED}>{t('production.flocks.chartError')}</p>
        ) : (
          <LineChart series={series} height={220} unit="kWh" formatX={(x) => `${x}`} />
        )}
      </Card>
    </section>
  );
}
