import { Classes } from '@blueprintjs/core';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { ParentSize } from '@visx/responsive';
import { scaleLinear } from '@visx/scale';
import { valueTicks } from './axisTicks';
import { LinePath } from '@visx/shape';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from './format';
import { formatNumber } from '../../i18n/numbers';

/** Colours of up to six houses plus targets; readable on white and apart from each other. */
export const SERIES_COLORS = [
  '#2d72d2',
  '#cd4246',
  '#238551',
  '#c87619',
  '#7961db',
  '#147eb3',
  '#5f6b7c',
];

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
  /** x (ms, or day of age) and y; null y leaves a gap. */
  points: ReadonlyArray<{ x: number; y: number | null }>;
  /** Drawn dotted (a set-point or a breed target). */
  dashed?: boolean;
}

export interface LineChartProps {
  series: readonly ChartSeries[];
  /** Height in px; the width follows the parent. */
  height: number;
  /** Formats an x value for the axis and the tooltip. */
  formatX?: (x: number) => string;
  /** The values' unit (℃, %, ppm), written above the value axis. */
  unit?: string;
  'data-testid'?: string;
}

const MARGIN = { top: 20, right: 16, bottom: 28, left: 48 };

function Chart({
  series,
  width,
  height,
  formatX = (x) => formatTime(x),
  unit,
}: LineChartProps & { width: number }) {
  const { t } = useTranslation();
  const [hoverX, setHoverX] = useState<number | null>(null);
  const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
  const innerH = Math.max(10, height - MARGIN.top - MARGIN.bottom);
  const { xs, xScale, yScale } = useMemo(() => {
    const allX = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort(
      (a, b) => a - b,
    );
    const ys = series.flatMap((s) => s.points.flatMap((p) => (p.y === null ? [] : [p.y])));
    const minY = ys.length ? Math.min(...ys) : 0;
    const maxY = ys.length ? Math.max(...ys) : 1;
    const pad = (maxY - minY) * 0.1 || 1;
    return {
      xs: allX,
      xScale: scaleLinear({ domain: [allX[0] ?? 0, allX.at(-1) ?? 1], range: [0, innerW] }),
      yScale: scaleLinear({ domain: [minY - pad, maxY + pad], range: [innerH, 0], nice: true }),
    };
  }, [series, innerW, innerH]);

  const handleMove = (event: React.MouseEvent<SVGRectElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const x = xScale.invert(event.clientX - box.left);
    let best: number | null = null;
    for (const candidate of xs)
      if (best === null || Math.abs(candidate - x) < Math.abs(best - x)) best = candidate;
    setHoverX(best);
  };
  const hoverLeft = hoverX === null ? 0 : xScale(hoverX);
  // A picture needs a name a screen reader says: what is drawn, in which unit. The values
  // themselves are in the page's tables and the tooltip.
  const seriesNames = series.map((s) => s.label).join(t('houses.chart.separator'));
  const name = unit
    ? t('houses.chart.nameWithUnit', { series: seriesNames, unit })
    : t('houses.chart.name', { series: seriesNames });
  const yTicks = valueTicks(yScale.ticks(5));
  return (
    <div style={{ position: 'relative' }}>
      <svg width={width} height={height} role="img" aria-label={name}>
        {unit && (
          <text x={4} y={12} fontSize={11} fill="#5f6b7c" data-testid="chart-unit">
            {unit}
          </text>
        )}
        <Group left={MARGIN.left} top={MARGIN.top}>
          <AxisLeft
            scale={yScale}
            tickValues={yTicks.values}
            tickFormat={(v) => yTicks.format(Number(v))}
          />
          <AxisBottom
            top={innerH}
            scale={xScale}
            numTicks={Math.max(2, Math.floor(innerW / 110))}
            tickFormat={(v) => formatX(Number(v))}
          />
          {series.map((s) => (
            <LinePath
              key={s.key}
              data={s.points as Array<{ x: number; y: number | null }>}
              x={(p) => xScale(p.x)}
              y={(p) => yScale(p.y ?? 0)}
              defined={(p) => p.y !== null}
              stroke={s.color}
              strokeWidth={s.dashed ? 1.5 : 2}
              strokeDasharray={s.dashed ? '4 4' : undefined}
              data-testid="chart-line"
              data-series={s.key}
              {...pointsShown(s.points)}
            />
          ))}
          {hoverX !== null && (
            <line
              x1={hoverLeft}
              x2={hoverLeft}
              y1={0}
              y2={innerH}
              stroke="#8f99a8"
              strokeDasharray="3 3"
              data-testid="chart-crosshair"
            />
          )}
          <rect
            width={innerW}
            height={innerH}
            fill="transparent"
            onMouseMove={handleMove}
            onMouseLeave={() => setHoverX(null)}
          />
        </Group>
      </svg>
      {hoverX !== null && (
        <div
          className="roost-chart-tooltip"
          data-testid="chart-tooltip"
          style={{
            left: Math.min(MARGIN.left + hoverLeft + 12, Math.max(0, width - 200)),
            top: MARGIN.top,
          }}
        >
          <div>{formatX(hoverX)}</div>
          {series.map((s) => {
            const y = s.points.find((p) => p.x === hoverX)?.y;
            return (
              <div key={s.key}>
                <span style={{ color: s.color }}>●</span> {s.label}:{' '}
                {y === undefined || y === null ? '—' : formatNumber(y)}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

/** A multi-line chart with legend, crosshair and tooltip (visx; drawn by hand, no extra package). */
export function LineChart(props: LineChartProps) {
  const { t } = useTranslation();
  const hasValues = props.series.some((s) => s.points.some((p) => p.y !== null));
  return (
    <div data-testid={props['data-testid']}>
      <div className="roost-chart-legend" data-testid="chart-legend">
        {props.series.map((s) => (
          <span key={s.key} data-testid="legend-item">
            <i
              style={
                s.dashed
                  ? { borderTop: `2px dashed ${s.color}`, height: 0 }
                  : { background: s.color }
              }
            />
            <span className={s.dashed ? Classes.TEXT_MUTED : undefined}>{s.label}</span>
          </span>
        ))}
      </div>
      {/* visx 4 measures inside an absolutely placed box: the outer one needs the height, or
          the chart is clipped to nothing. */}
      {hasValues ? (
        <ParentSize debounceTime={50} style={{ height: props.height }}>
          {({ width }) => (width > 0 ? <Chart {...props} width={width} /> : null)}
        </ParentSize>
      ) : (
        // Axes over nothing repeat one tick label; say plainly that the window holds no reading.
        <div
          className={`roost-chart-empty ${Classes.TEXT_MUTED}`}
          style={{ height: props.height }}
          data-testid="chart-empty"
        >
          {t('houses.chart.noData')}
        </div>
      )}
    </div>
  );
}

/**
 * How many points a line draws and the first and last drawn x (ms): what a check of the page
 * reads, since a path's geometry does not say how much of the window it covers.
 */
function pointsShown(points: ChartSeries['points']) {
  let count = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (const p of points) {
    if (p.y === null) continue;
    count += 1;
    first ??= p.x;
    last = p.x;
  }
  return { 'data-points': count, 'data-first-x': first ?? '', 'data-last-x': last ?? '' };
}
