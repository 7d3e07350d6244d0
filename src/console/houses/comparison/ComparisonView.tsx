import { Card, Classes, HTMLTable } from '@blueprintjs/core';
import { type TFunction } from 'i18next';
import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type Comparison } from '../../../contract/houses';
import { METRIC_BY_KEY } from '../../../contract/metrics';
import { formatTime } from '../format';
import { breakAtGaps, gapStep } from '../gaps';
import { formatNumber } from '../../../i18n/numbers';
import { LineChart, SERIES_COLORS, type ChartSeries } from '../LineChart';

const DAY_MS = 86_400_000;

/** A bucket's length by granularity (a month at its longest). */
const BUCKET_MS: Record<Comparison['granularity'], number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: DAY_MS,
  month: 31 * DAY_MS,
};

/** The breed standards' colour: grey, dashed, apart from the six houses' colours. */
const STANDARD_COLOR = '#5f6b7c';

/** "Day 12", or "Day 12 · 06:00" inside a day (hourly and minute points aligned by age). */
export function formatAge(t: TFunction, age: number): string {
  const day = Math.floor(age + 1e-6);
  const minutes = Math.round((age - day) * 24 * 60);
  const clock =
    minutes > 0 && minutes < 24 * 60
      ? ` · ${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
      : '';
  return `${t('houses.compare.ageDay', { day })}${clock}`;
}

/** The chart's series: one per house, and aligned by age one dashed line per breed standard. */
export function comparisonSeries(
  comparison: Comparison,
  standardLabel: (breedName: string) => string,
): ChartSeries[] {
  const byAge = comparison.align === 'age';
  const houses = comparison.houses.map((h, i) => ({
    key: String(h.houseId),
    label: `${h.farmName} / ${h.houseName}`,
    color: SERIES_COLORS[i] ?? '#2d72d2',
    points: (byAge ? (h.ages ?? []) : h.times).map((x, j) => ({ x, y: h.values[j] ?? null })),
  }));
  const standards = byAge
    ? comparison.standards.map((s) => ({
        key: `standard-${s.breedId}`,
        label: standardLabel(s.breedName),
        color: STANDARD_COLOR,
        dashed: true,
        points: s.ages.map((x, j) => ({ x, y: s.values[j] ?? null })),
      }))
    : [];
  return [...houses, ...standards];
}

/** Chart and table of one comparison; the table holds exactly the chart's points. */
export function ComparisonView({
  comparison,
  intervalSeconds = null,
  completeness,
}: {
  comparison: Comparison;
  /** The longest reading interval of the houses' gateways (null: unknown, 60 s). */
  intervalSeconds?: number | null;
  /** The houses' data completeness over the window, shown under the chart. */
  completeness?: ReactNode;
}) {
  const { t } = useTranslation();
  const byAge = comparison.align === 'age';
  const series = comparisonSeries(comparison, (breed) => t('houses.compare.standardOf', { breed }));
  // The chart breaks its lines where readings are missing; the table lists only real points.
  const step = gapStep(BUCKET_MS[comparison.granularity], intervalSeconds) / (byAge ? DAY_MS : 1);
  const drawn = series.map((s) => ({ ...s, points: breakAtGaps(s.points, step) }));
  const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const columns = series.map((s) => new Map(s.points.map((p) => [p.x, p.y])));
  const formatX = byAge ? (x: number) => formatAge(t, x) : (x: number) => formatTime(x);
  return (
    <div className="roost-compare">
      <Card>
        <LineChart
          data-testid="compare-chart"
          series={drawn}
          height={360}
          formatX={formatX}
          unit={METRIC_BY_KEY.get(comparison.metric)?.unit}
        />
        {completeness}
        {byAge && comparison.standards.length === 0 && (
          <p className={Classes.TEXT_MUTED} data-testid="compare-no-standard">
            {t('houses.compare.noStandard')}
          </p>
        )}
      </Card>
      <Card className="roost-compare__table">
        <HTMLTable compact striped data-testid="compare-table">
          <thead>
            <tr>
              <th>{byAge ? t('houses.compare.age') : t('houses.compare.time')}</th>
              {series.map((s, i) => {
                const house = s.dashed ? undefined : comparison.houses[i];
                // Two farms may both have a "House 1": the farm goes under the house's name.
                return (
                  <th key={s.key}>
                    {house ? (
                      <>
                        {house.houseName}
                        <div
                          className={`${Classes.TEXT_MUTED} roost-compare__farm`}
                          title={house.farmName}
                        >
                          {house.farmName}
                        </div>
                      </>
                    ) : (
                      s.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {xs.map((x) => (
              <tr key={x}>
                <td>{formatX(x)}</td>
                {columns.map((column, i) => {
                  const v = column.get(x);
                  return <td key={i}>{v === null || v === undefined ? '' : formatNumber(v)}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </Card>
    </div>
  );
}
