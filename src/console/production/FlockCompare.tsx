import { Card, Classes, FormGroup, H5, HTMLSelect, HTMLTable } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  COMPARE_SERIES,
  COMPARE_WITH,
  STANDARD_OF,
  type CompareLine,
  type CompareSeries,
  type CompareWith,
  type FlockCompare as Answer,
} from '../../contract/productionCompare';
import { type FlockCompareStore } from '../../stores/FlockCompareStore';
import { LineChart, SERIES_COLORS, type ChartSeries } from '../houses/LineChart';
import { ScrollRegion } from '../ScrollRegion';
import { figure } from '../../i18n/numbers';

/** Series measured only on some days (weighing): their lines join the measured days. */
const SPARSE: ReadonlySet<CompareSeries> = new Set(['bodyWeightG', 'dailyGainG', 'fcr']);
const LAYER_ONLY: ReadonlySet<CompareSeries> = new Set([
  'henDayPct',
  'eggMassG',
  'feedPerEggKg',
  'feedPerDozenKg',
]);
/** Broilers' only: a hen's weight is not what her feed makes (layers read feed per egg). */
const BROILER_ONLY: ReadonlySet<CompareSeries> = new Set(['epef', 'fcr']);
const DIGITS: Record<CompareSeries, number> = {
  bodyWeightG: 0,
  feedPerBirdG: 1,
  livabilityPct: 2,
  henDayPct: 1,
  mortalityPct: 2,
  dailyGainG: 1,
  fcr: 3,
  feedPerEggKg: 3,
  feedPerDozenKg: 3,
  waterFeedRatio: 2,
  eggMassG: 1,
  epef: 0,
};

const seriesFor = (layer: boolean) =>
  COMPARE_SERIES.filter((s) => (layer ? !BROILER_ONLY.has(s) : !LAYER_ONLY.has(s)));

/** Tells the flocks apart: by placement within a house, by house and placement across a farm. */
const labelOf = (line: CompareLine, compareWith: CompareWith) =>
  compareWith === 'house'
    ? line.flock.placedOn
    : `${line.flock.houseName} · ${line.flock.placedOn}`;

/**
 * The chosen flock against the house's previous flocks or the farm's other houses, aligned by day
 * of age, one KPI at a time, with the breed-standard line; the same figures as a table below.
 */
export const FlockCompare = observer(function FlockCompare({
  store,
  flockId,
  layer,
}: {
  store: FlockCompareStore;
  flockId: number;
  layer: boolean;
}) {
  const { t } = useTranslation();
  useEffect(() => void store.load(flockId).catch(() => undefined), [store, flockId]);
  const options = seriesFor(layer);
  const series = options.includes(store.series) ? store.series : options[0]!;
  const answer = store.answer?.lines[0]?.flock.id === flockId ? store.answer : null;
  return (
    <Card className="roost-production__month" data-testid="flock-compare">
      <H5>{t('production.compare.title')}</H5>
      <div className="roost-production__bar">
        <FormGroup label={t('production.compare.with')} labelFor="compare-with">
          <HTMLSelect
            id="compare-with"
            value={store.compareWith}
            onChange={(e) =>
              void store.load(flockId, e.target.value as CompareWith).catch(() => undefined)
            }
            options={COMPARE_WITH.map((w) => ({
              value: w,
              label: t(`production.compare.withOption.${w}`),
            }))}
          />
        </FormGroup>
        <FormGroup label={t('production.compare.series')} labelFor="compare-series">
          <HTMLSelect
            id="compare-series"
            value={series}
            onChange={(e) => store.chooseSeries(e.target.value as CompareSeries)}
            options={options.map((s) => ({ value: s, label: t(`production.kpi.${s}`) }))}
          />
        </FormGroup>
      </div>
      {answer && <CompareView answer={answer} series={series} compareWith={store.compareWith} />}
    </Card>
  );
});

function CompareView({
  answer,
  series,
  compareWith,
}: {
  answer: Answer;
  series: CompareSeries;
  compareWith: CompareWith;
}) {
  const { t } = useTranslation();
  const standardKey = STANDARD_OF[series];
  const chart = useMemo((): ChartSeries[] => {
    const lines = answer.lines.map((line, i): ChartSeries => ({
      key: `flock${line.flock.id}`,
      label: labelOf(line, compareWith),
      color: SERIES_COLORS[i % 6]!,
      points: line.ages
        .map((x, j) => ({ x, y: line.values[series][j] ?? null }))
        .filter((p) => !SPARSE.has(series) || p.y !== null),
    }));
    const standard = standardKey ? answer.standard.values[standardKey] : undefined;
    if (!standard) return lines;
    return [
      ...lines,
      {
        key: 'standard',
        label: t('production.flocks.standard'),
        color: SERIES_COLORS[6]!,
        dashed: true,
        points: answer.standard.ages.map((x, j) => ({ x, y: standard[j] ?? null })),
      },
    ];
  }, [answer, series, compareWith, standardKey, t]);

  // One row per day of age that any flock measured; the standard is read beside it.
  const rows = useMemo(() => {
    const byAge = new Map<number, Array<number | null>>();
    answer.lines.forEach((line, i) =>
      line.ages.forEach((age, j) => {
        const value = line.values[series][j] ?? null;
        if (value === null) return;
        const row = byAge.get(age) ?? answer.lines.map(() => null);
        row[i] = value;
        byAge.set(age, row);
      }),
    );
    const standard = standardKey ? answer.standard.values[standardKey] : undefined;
    const standardAt = new Map(answer.standard.ages.map((a, j) => [a, standard?.[j] ?? null]));
    return [...byAge.entries()]
      .sort(([a], [b]) => b - a)
      .map(([age, values]) => ({ age, values, standard: standardAt.get(age) ?? null }));
  }, [answer, series, standardKey]);

  const measured = chart.filter((s) => s.key !== 'standard').some((s) => s.points.length >= 2);
  const digits = DIGITS[series];
  return (
    <>
      {measured ? (
        <LineChart
          series={chart}
          height={260}
          formatX={(x) => `${x}`}
          data-testid="compare-chart"
        />
      ) : (
        <p className={Classes.TEXT_MUTED}>{t('production.flocks.chartError')}</p>
      )}
      <ScrollRegion className="roost-production__scroll" label={t('production.compare.title')}>
        <HTMLTable compact striped className="roost-production__grid" data-testid="compare-table">
          <thead>
            <tr>
              <th>{t('production.flocks.age')}</th>
              {answer.lines.map((line, i) => (
                <th key={line.flock.id}>
                  {labelOf(line, compareWith)}
                  {i === 0 && ` (${t('production.flocks.actual')})`}
                </th>
              ))}
              {standardKey && <th>{t('production.flocks.standard')}</th>}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={answer.lines.length + 2}>{t('production.compare.none')}</td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={row.age} data-age={row.age}>
                <td>{row.age}</td>
                {row.values.map((v, i) => (
                  <td key={answer.lines[i]!.flock.id}>{figure(v, digits)}</td>
                ))}
                {standardKey && <td>{figure(row.standard, digits)}</td>}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
    </>
  );
}
