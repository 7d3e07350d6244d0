import { Card, Classes, H5 } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type PowerMonth } from '../../contract/productionPower';
import { LineChart, SERIES_COLORS } from '../houses/LineChart';
import { figure, money } from '../../i18n/numbers';

/**
 * The chosen day's month: its electricity day by day, peak and average, cost, per bird and per
 * kg. `currency` is the tariff's, null when none is set.
 */
export function PowerMonthView({
  month,
  currency,
}: {
  month: PowerMonth;
  currency: string | null;
}) {
  const { t, i18n } = useTranslation();
  const series = useMemo(
    () => [
      {
        key: 'kwh',
        label: t('production.power.kwh'),
        color: SERIES_COLORS[0]!,
        // Today is left out: its kWh so far would read as a drop.
        points: month.days.map((d) => ({
          x: Number(d.day.slice(8)),
          y: d.day === month.runningDay ? null : d.kwh,
        })),
      },
    ],
    [month, t],
  );
  const metered = month.days.filter((d) => d.kwh !== null && d.day !== month.runningDay).length;
  const today = month.days.find((d) => d.day === month.runningDay);
  const figures: Array<[string, string, string, string?]> = [
    ['month-kwh', t('production.power.monthTotal'), figure(month.kwh, 1)],
    [
      'month-cost',
      t('production.power.cost'),
      currency === null
        ? t('production.power.noTariff')
        : money(month.cost, currency, i18n.language),
    ],
    ['month-peak', t('production.power.peak'), figure(month.peakKw, 1)],
    ['month-average', t('production.power.average'), figure(month.averageKw, 1)],
    ['month-bird', t('production.power.perBird'), figure(month.kwhPerBird, 3)],
    [
      'month-kg',
      t('production.power.perKg'),
      figure(month.kwhPerKg, 3),
      // What the figure divides, so a reader can check it against the days shown.
      month.kwhPerKg === null
        ? undefined
        : t('production.power.perKgBasis', {
            kwh: figure(month.producedKwh, 0),
            kg: figure(month.producedKg, 0),
          }),
    ],
  ];
  return (
    <section className="roost-production__month" data-testid="power-month">
      <H5>{t('production.power.month', { month: month.month })}</H5>
      <div className="roost-production__cards">
        {figures.map(([testId, label, value, basis]) => (
          <Card compact key={testId} data-testid={testId}>
            <div className={Classes.TEXT_MUTED}>{label}</div>
            <div className="roost-production__stat">{value}</div>
            {basis && <div className={Classes.TEXT_MUTED}>{basis}</div>}
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
        {today && today.kwh !== null && (
          <p className={Classes.TEXT_MUTED} data-testid="power-running-day">
            {t('production.power.runningDay', { kwh: figure(today.kwh, 1) })}
          </p>
        )}
      </Card>
    </section>
  );
}
