import { Classes } from '@blueprintjs/core';
import { Group } from '@visx/group';
import { ParentSize } from '@visx/responsive';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { ALARM_SEVERITIES } from '../../contract/alarms';
import {
  countOf,
  HOUR_MS,
  WALL_NIGHT_HOURS,
  type WallNight as Night,
} from '../../contract/wallNight';
import { formatClock, zonedParts } from '../../i18n/dates';
import { STATE_HEX } from './constants';
import { type NightStory } from './nightStory';
import './night.css';

/** The severities' colours, as the open alarms' list marks them. */
const SEVERITY_HEX = { critical: '#f66c6c', major: '#e6a23c', minor: '#909399' } as const;
const CLEARED_HEX = STATE_HEX.normal;
const YESTERDAY_HEX = '#c7d5e3';
/** Hours named under the chart: every sixth, where a person reads the night in quarters. */
const LABEL_EVERY = 6;

const firstHour = (night: Night) => Date.parse(night.hourStart) - (WALL_NIGHT_HOURS - 1) * HOUR_MS;

/**
 * The 24 hours as bars: alarms raised stacked by severity above the line, cleared below it, on
 * one scale; the same hour of yesterday marked by a light line across each bar at yesterday's
 * height, so a night worse than the last shows as bars past their marks.
 */
function Chart({ night, width, height }: { night: Night; width: number; height: number }) {
  const hours = night.today.map((today, slot) => ({
    today,
    yesterday: night.yesterday[slot]!,
  }));
  const up = Math.max(
    1,
    ...hours.flatMap((h) => [countOf(h.today.raised), countOf(h.yesterday.raised)]),
  );
  const down = Math.max(
    1,
    ...hours.flatMap((h) => [countOf(h.today.cleared), countOf(h.yesterday.cleared)]),
  );
  const x = scaleBand({ domain: hours.map((_, slot) => slot), range: [0, width], padding: 0.25 });
  const y = scaleLinear({ domain: [0, up + down], range: [0, height] });
  const base = y(up);
  const bar = x.bandwidth();
  // Yesterday's marks: as thick as a wall's size needs (a 4K band is twice a 1080p one).
  const mark = Math.max(2, bar * 0.12);
  const first = firstHour(night);
  return (
    <svg width={width} height={height} aria-hidden="true" data-testid="night-chart">
      {hours.map((hour, slot) => {
        const left = x(slot) ?? 0;
        let top = base;
        const raised = countOf(hour.today.raised);
        const cleared = countOf(hour.today.cleared);
        const yesterdayRaised = countOf(hour.yesterday.raised);
        const yesterdayCleared = countOf(hour.yesterday.cleared);
        return (
          <Group
            key={slot}
            data-slot={slot}
            data-start={new Date(first + slot * HOUR_MS).toISOString()}
            data-raised={raised}
            data-cleared={cleared}
            data-yesterday-raised={yesterdayRaised}
            data-yesterday-cleared={yesterdayCleared}
          >
            {slot === WALL_NIGHT_HOURS - 1 && (
              <rect
                className="roost-wall__night-now"
                x={left - x.step() * x.paddingInner() * 0.5}
                width={x.step()}
                y={0}
                height={height}
              />
            )}
            {ALARM_SEVERITIES.map((severity) => {
              const n = hour.today.raised[severity];
              if (n === 0) return null;
              top -= y(n);
              return (
                <Bar
                  key={severity}
                  data-severity={severity}
                  x={left}
                  y={top}
                  width={bar}
                  height={y(n)}
                  fill={SEVERITY_HEX[severity]}
                />
              );
            })}
            {cleared > 0 && (
              <Bar x={left} y={base} width={bar} height={y(cleared)} fill={CLEARED_HEX} />
            )}
            {/* Yesterday's level at the same hour: a line across the bar, above and below. */}
            {[-yesterdayRaised, yesterdayCleared].map((n, side) =>
              n === 0 ? null : (
                <line
                  key={side}
                  className="roost-wall__night-yesterday"
                  x1={left - mark}
                  x2={left + bar + mark}
                  y1={base + Math.sign(n) * y(Math.abs(n))}
                  y2={base + Math.sign(n) * y(Math.abs(n))}
                  stroke={YESTERDAY_HEX}
                  strokeWidth={mark}
                />
              ),
            )}
          </Group>
        );
      })}
      <line x1={0} x2={width} y1={base} y2={base} className="roost-wall__night-base" />
    </svg>
  );
}

/** Every sixth hour's clock under its bar (none at the very edges, where it would be cut). */
function HourLabels({ night }: { night: Night }) {
  const first = firstHour(night);
  const labels = night.today.flatMap((_, slot) => {
    const start = first + slot * HOUR_MS;
    // Hours of the answer's zone (the deployment's), the zone the hours were counted in.
    const named = zonedParts(new Date(start), night.timeZone).hour % LABEL_EVERY === 0;
    return named && slot > 1 && slot < WALL_NIGHT_HOURS - 2 ? [{ slot, start }] : [];
  });
  return (
    <div className={`roost-wall__night-hours ${Classes.TEXT_MUTED}`}>
      {labels.map(({ slot, start }) => (
        <span key={slot} style={{ left: `${(slot / WALL_NIGHT_HOURS) * 100}%` }}>
          {formatClock(start, { seconds: false, timeZone: night.timeZone })}
        </span>
      ))}
    </div>
  );
}

function Totals({ night }: { night: Night }) {
  const { t } = useTranslation();
  const row = (id: 'today' | 'yesterday') => (
    <tr data-testid={`night-${id}`}>
      <th scope="row">{t(`wall.night.${id}`)}</th>
      <td data-testid="raised">{night.totals[id].raised}</td>
      <td data-testid="cleared">{night.totals[id].cleared}</td>
    </tr>
  );
  return (
    <table className="roost-wall__night-totals" data-testid="night-totals">
      <thead>
        <tr>
          <td />
          <th scope="col">{t('wall.night.raised')}</th>
          <th scope="col">{t('wall.night.cleared')}</th>
        </tr>
      </thead>
      <tbody>
        {row('today')}
        {row('yesterday')}
      </tbody>
    </table>
  );
}

function Key() {
  const { t } = useTranslation();
  return (
    <ul className={`roost-wall__night-key ${Classes.TEXT_MUTED}`}>
      {ALARM_SEVERITIES.map((severity) => (
        <li key={severity}>
          <i style={{ background: SEVERITY_HEX[severity] }} />
          {t(`alarms.severity.${severity}`)}
        </li>
      ))}
      <li>
        <i style={{ background: CLEARED_HEX }} />
        {t('wall.night.keyCleared')}
      </li>
      <li>
        <i className="roost-wall__night-key-yesterday" style={{ borderColor: YESTERDAY_HEX }} />
        {t('wall.night.keyYesterday')}
      </li>
    </ul>
  );
}

/** The night's story: the last 24 hours of alarms, hour by hour, against yesterday's. */
export const WallNight = observer(function WallNight({ story }: { story: NightStory }) {
  const { t } = useTranslation();
  const night = story.night;
  const quiet =
    night !== null &&
    [...night.today, ...night.yesterday].every((h) => countOf(h.raised) + countOf(h.cleared) === 0);
  return (
    <section className="roost-wall__panel roost-wall__night" data-testid="wall-night">
      <h2 className="roost-wall__heading">{t('wall.night.title')}</h2>
      {night === null ? (
        <p className={Classes.TEXT_MUTED}>{t('wall.night.loading')}</p>
      ) : (
        <>
          <Totals night={night} />
          {quiet && <p className={Classes.TEXT_MUTED}>{t('wall.night.quiet')}</p>}
          <div className="roost-wall__night-chart">
            <ParentSize debounceTime={50}>
              {({ width, height }) =>
                width > 0 && height > 0 ? (
                  <Chart night={night} width={width} height={height} />
                ) : null
              }
            </ParentSize>
          </div>
          <HourLabels night={night} />
          <Key />
        </>
      )}
    </section>
  );
});
