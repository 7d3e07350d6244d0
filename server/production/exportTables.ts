import type { Locale } from '../../src/contract/envelope';
import {
  feedMeasureOf,
  type FeedMeasure,
  type FlockKpis,
  type KpiDay,
  type PowerAnswer,
} from '../../src/contract/production';
import type { Cell, ExportTable } from '../houses/exportTable';
import { EXPORT_TEXTS } from './exportTexts';

/** Four decimals are more than any KPI deserves and keep 0.1 + 0.2 out of the spreadsheet. */
const round = (v: number | null) => (v === null ? null : Math.round(v * 10_000) / 10_000);

type Column = [key: string, value: (d: KpiDay) => number | null];

const KPI_COLUMNS = (layer: boolean, feed: FeedMeasure): Column[] => [
  ['alive', (d) => d.alive],
  ['mortalityPct', (d) => d.mortalityPct],
  ['livabilityPct', (d) => d.livabilityPct],
  ['bodyWeightG', (d) => d.bodyWeightG],
  ['dailyGainG', (d) => d.dailyGainG],
  ['feedPerBirdG', (d) => d.feedPerBirdG],
  // Broilers' FCR, or the layers' feed per kg of eggs (or per dozen): feedMeasureOf decides.
  [feed, (d) => d[feed]],
  ['waterL', (d) => d.waterL],
  ['waterFeedRatio', (d) => d.waterFeedRatio],
  ...(layer
    ? ([
        ['henDayPct', (d) => d.henDayPct],
        ['eggMassG', (d) => d.eggMassG],
      ] satisfies Column[])
    : ([['epef', (d) => d.epef]] satisfies Column[])),
  ['energyPerBirdKwh', (d) => d.energyPerBirdKwh],
  ['standardBodyWeightG', (d) => d.standard.bodyWeightG],
  ['standardFeedPerBirdG', (d) => d.standard.feedPerBirdG],
  ['standardLivabilityPct', (d) => d.standard.livabilityPct],
  ...(layer ? ([['standardHenDayPct', (d) => d.standard.henDayPct]] satisfies Column[]) : []),
];

/**
 * A flock's KPIs by day as a table: one row per day of its life; a missing day keeps its date,
 * age and breed standard, says "missing" and leaves its figures empty (never zero).
 */
export function kpiTable(kpis: FlockKpis, locale: Locale): ExportTable {
  const texts = EXPORT_TEXTS[locale];
  const columns = KPI_COLUMNS(kpis.flock.layer, feedMeasureOf(kpis));
  const header = ['day', 'ageDay', ...columns.map(([key]) => key), 'state'].map(
    (key) => texts.kpi[key]!,
  );
  const rows = kpis.days.map((d): Cell[] => [
    d.day,
    d.ageDay,
    ...columns.map(([key, value]) =>
      d.recorded || key.startsWith('standard') ? round(value(d)) : null,
    ),
    d.recorded ? null : texts.missing,
  ]);
  return { header, rows };
}

/** A day's electricity hour by hour with its period, price and cost, then the day's totals. */
export function powerTable(power: PowerAnswer, locale: Locale): ExportTable {
  const texts = EXPORT_TEXTS[locale];
  const { tariff } = power;
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
  const rows = power.hourly.map((kwh, hour): Cell[] => {
    const period = tariff?.hours[hour] ?? null;
    const price = period && tariff ? tariff.prices[period] : null;
    return [
      `${hh(hour)}–${hh(hour + 1)}`,
      round(kwh),
      period ? texts.periods[period] : null,
      price,
      kwh !== null && price !== null ? round(kwh * price) : null,
    ];
  });
  rows.push(
    [texts.total, round(power.kwh), null, null, round(power.cost)],
    [texts.peakKw, round(power.peakKw), null, null, null],
    [texts.averageKw, round(power.averageKw), null, null, null],
  );
  const p = texts.power;
  // A price or a cost is in the tariff's currency, which the headers name.
  const billed = (text: string, plain: string) =>
    tariff ? text.replace('{currency}', tariff.currency) : plain;
  return {
    header: [
      p.hour,
      p.kwh,
      p.period,
      billed(texts.billed.price, p.price),
      billed(texts.billed.cost, p.cost),
    ],
    rows,
  };
}
