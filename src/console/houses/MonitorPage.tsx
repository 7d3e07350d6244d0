import { Button, Card, H5, HTMLSelect, NonIdealState } from '@blueprintjs/core';
import { DownloadIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { METRIC_BY_KEY, metricLabel } from '../../contract/metrics';
import { type House } from '../../stores/HousesStore';
import './houses.css';
import { fetchTrend } from '../../stores/houseQueries';
import { LineChart, SERIES_COLORS, type ChartSeries } from './LineChart';
import { CompletenessCard, useCompleteness } from './CompletenessCard';
import { breakAtGaps, gapStep } from './gaps';
import { LiveIndicator } from './LiveIndicator';
import { formatTime } from './format';
import { useExport } from './useExport';
import { useStores } from '../useStores';
import { RemindersPanel } from '../reminders/RemindersPanel';
import { ExtraMetricsCard } from '../devices/ExtraMetricsCard';
import { MonitorCameras } from '../devices/MonitorCameras';
import { AlarmsCard } from './monitor/AlarmsCard';
import { DevicesCard, FlockCard, GatewayCard, SensorsCard } from './monitor/MonitorSections';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The 24-hour curves: the main metrics, each against its target where it has one. */
const CURVES = [
  { metric: 'temperature', target: 'temperature_target' },
  { metric: 'humidity' },
  { metric: 'co2' },
  { metric: 'nh3' },
] as const;
const CURVE_METRICS = ['temperature', 'temperature_target', 'humidity', 'co2', 'nh3'];

function useHouseCurves(houseId: number | null): void {
  const { api, houses } = useStores();
  useEffect(() => {
    if (houseId === null) return;
    // Full-rate readings while the page shows this house; left when it closes or changes.
    const leave = houses.follow(houseId);
    let cancelled = false;
    const to = Date.now();
    fetchTrend(
      api,
      { houseId, metrics: CURVE_METRICS.join(','), from: to - DAY_MS, to, granularity: 'minute' },
      true,
    )
      .then((trend) => {
        if (cancelled) return;
        const readings: Record<string, Array<{ t: number; v: number }>> = {};
        for (const [metric, series] of Object.entries(trend.series))
          readings[metric] = trend.times.flatMap((t, i) => {
            const v = series.avg[i];
            return v === null || v === undefined ? [] : [{ t, v }];
          });
        houses.setReadings(houseId, readings);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      leave();
    };
  }, [api, houses, houseId]);
}

const Curves = observer(function Curves({
  house,
  intervalSeconds,
}: {
  house: House;
  intervalSeconds: number | null;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const readings = house.readings;
  const exportTrend = useExport();
  const maxStep = gapStep(60_000, intervalSeconds);
  const charts = useMemo(
    () =>
      CURVES.map((curve, index) => {
        const series: ChartSeries[] = [
          {
            key: curve.metric,
            label: metricLabel(curve.metric, lang),
            color: SERIES_COLORS[index] ?? '#2d72d2',
            points: breakAtGaps(
              (readings[curve.metric] ?? []).map((p) => ({ x: p.t, y: p.v })),
              maxStep,
            ),
          },
        ];
        if ('target' in curve)
          series.push({
            key: curve.target,
            label: t('houses.monitor.breedTarget'),
            color: '#5f6b7c',
            dashed: true,
            points: breakAtGaps(
              (readings[curve.target] ?? []).map((p) => ({ x: p.t, y: p.v })),
              maxStep,
            ),
          });
        return { metric: curve.metric, series };
      }),
    [readings, lang, t, maxStep],
  );
  return (
    <Card className="roost-monitor__wide" data-testid="monitor-curves">
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <H5>{t('houses.monitor.curves')}</H5>
        <div>
          {(['csv', 'xlsx'] as const).map((format) => (
            <Button
              key={format}
              variant="minimal"
              icon={<DownloadIcon />}
              data-testid={`trend-export-${format}`}
              text={`${t('houses.monitor.exportTrend')} ${t(`houses.export.${format}`)}`}
              onClick={() => {
                const to = Date.now();
                void exportTrend('/houses/trend/export', 24 * 60, {
                  houseId: house.houseId,
                  metrics: CURVE_METRICS.join(','),
                  from: to - DAY_MS,
                  to,
                  granularity: 'minute',
                  // A terminal device's own parameters (a dust sensor, a scale) come along.
                  extras: 'all',
                  format,
                });
              }}
            />
          ))}
        </div>
      </div>
      <div className="roost-monitor">
        {charts.map((chart) => (
          <LineChart
            key={chart.metric}
            series={chart.series}
            unit={METRIC_BY_KEY.get(chart.metric)?.unit}
            height={180}
            formatX={(x) => formatTime(x, false)}
          />
        ))}
      </div>
    </Card>
  );
});

/** House monitor: one house, every sensor live, its 24-hour curves. */
export const MonitorPage = observer(function MonitorPage() {
  const { houses } = useStores();
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('houseId'));
  const houseId = Number.isInteger(raw) && raw > 0 ? raw : null;
  const house = houseId === null ? undefined : houses.get(houseId);
  useHouseCurves(house ? house.houseId : null);
  const completeness = useCompleteness(house ? [house.houseId] : []);
  const options = houses.all;
  return (
    <div className="roost-page" data-testid="page-houseMonitor">
      <div className="roost-houses-toolbar">
        <HTMLSelect
          aria-label={t('houses.monitor.pick')}
          value={houseId ?? ''}
          data-testid="monitor-picker"
          onChange={(event) => setParams({ houseId: event.currentTarget.value })}
        >
          <option value="">{t('houses.monitor.pickPlaceholder')}</option>
          {options.map((h) => (
            <option key={h.houseId} value={h.houseId}>
              {h.farmName} / {h.houseName}
            </option>
          ))}
        </HTMLSelect>
        {house && <strong data-testid="monitor-title">{house.houseName}</strong>}
        <LiveIndicator />
      </div>
      {!house ? (
        <NonIdealState
          title={
            houseId !== null && houses.loaded
              ? t('houses.monitor.notFound')
              : t('houses.monitor.choose')
          }
        />
      ) : (
        <div className="roost-monitor">
          <SensorsCard house={house} />
          <ExtraMetricsCard house={house} />
          <MonitorCameras houseId={house.houseId} />
          <AlarmsCard house={house} />
          <DevicesCard house={house} />
          <FlockCard house={house} />
          <RemindersPanel houseId={house.houseId} />
          <GatewayCard house={house} />
          <CompletenessCard answer={completeness} />
          <Curves house={house} intervalSeconds={completeness?.rows[0]?.intervalSeconds ?? null} />
        </div>
      )}
    </div>
  );
});
