import { Card, Classes, H5 } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { feedMeasureOf, type FlockKpis, type KpiDay } from '../../contract/production';
import { LineChart, SERIES_COLORS, type ChartSeries } from '../houses/LineChart';
import '../houses/houses.css';

type Actual =
  | 'bodyWeightG'
  | 'feedPerBirdG'
  | 'livabilityPct'
  | 'henDayPct'
  | 'fcr'
  | 'feedPerEggKg'
  | 'feedPerDozenKg';
type Standard = keyof KpiDay['standard'];

interface ChartSpec {
  actual: Actual;
  /** Measured only some days (weighing): the line joins the measured days. */
  sparse?: boolean;
  standard: Standard | null;
  layer?: boolean;
  /** The value axis's unit (numbers and symbols, the same in every language); FCR has none. */
  unit?: string;
}

const CHARTS: readonly ChartSpec[] = [
  { actual: 'bodyWeightG', standard: 'bodyWeightG', sparse: true, unit: 'g' },
  { actual: 'feedPerBirdG', standard: 'feedPerBirdG', unit: 'g' },
  { actual: 'livabilityPct', standard: 'livabilityPct', unit: '%' },
  { actual: 'henDayPct', standard: 'henDayPct', layer: true, unit: '%' },
  // The feed measure of the flock's kind; only the one feedMeasureOf names is drawn.
  { actual: 'fcr', standard: null, layer: false, sparse: true },
  { actual: 'feedPerEggKg', standard: null, layer: true },
  { actual: 'feedPerDozenKg', standard: null, layer: true },
];

const FEED: ReadonlySet<Actual> = new Set(['fcr', 'feedPerEggKg', 'feedPerDozenKg']);

/** The flock's curves by day of age, each with its breed-standard line (dashed). */
export function KpiCharts({ kpis }: { kpis: FlockKpis }) {
  const { t } = useTranslation();
  const feed = feedMeasureOf(kpis);
  const charts = CHARTS.filter(
    (c) =>
      (c.layer === undefined || c.layer === kpis.flock.layer) &&
      (!FEED.has(c.actual) || c.actual === feed),
  );
  return (
    <div className="roost-production__charts" data-testid="kpi-charts">
      {charts.map((c) => (
        <KpiChart
          key={c.actual}
          spec={c}
          days={kpis.days}
          title={t(`production.kpi.${c.actual}`)}
        />
      ))}
    </div>
  );
}

function KpiChart({ spec, days, title }: { spec: ChartSpec; days: KpiDay[]; title: string }) {
  const { t } = useTranslation();
  const series = useMemo((): ChartSeries[] => {
    // A missing day is a gap in a daily line, never a drop to zero.
    const actual: ChartSeries = {
      key: 'actual',
      label: t('production.flocks.actual'),
      color: SERIES_COLORS[0]!,
      points: days
        .map((d) => ({ x: d.ageDay, y: d[spec.actual] }))
        .filter((p) => !spec.sparse || p.y !== null),
    };
    if (!spec.standard) return [actual];
    const key = spec.standard;
    return [
      actual,
      {
        key: 'standard',
        label: t('production.flocks.standard'),
        color: SERIES_COLORS[6]!,
        dashed: true,
        points: days.map((d) => ({ x: d.ageDay, y: d.standard[key] })),
      },
    ];
  }, [days, spec, t]);
  const measured = days.filter((d) => d[spec.actual] !== null).length;
  return (
    <Card compact data-testid={`chart-${spec.actual}`}>
      <H5>{title}</H5>
      {measured < 2 ? (
        <p className={Classes.TEXT_MUTED}>{t('production.flocks.chartError')}</p>
      ) : (
        <LineChart series={series} height={200} formatX={(x) => `${x}`} unit={spec.unit} />
      )}
    </Card>
  );
}
