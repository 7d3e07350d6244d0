import { Classes } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { WALL_STATES } from '../../contract/wall';
import { formatClock } from '../../i18n/dates';
import { ALARM_CAUSES, type AlarmCause } from '../../contract/alarms';
import { STATE_HEX } from './constants';
import { type AlarmChange } from './wallModel';
import { type TickerEntry, type WallStore } from './WallStore';

export interface WallPanelProps {
  /** The wall's store. */
  store: WallStore;
}

function Counter({
  id,
  label,
  value,
  color,
}: {
  id: string;
  label: string;
  value: string;
  color?: string;
}) {
  return (
    <div className="roost-wall__counter" data-testid={`wall-count-${id}`}>
      <div className="roost-wall__counter-value" style={{ color }} data-testid="value">
        {value}
      </div>
      <div className={`roost-wall__counter-label ${Classes.TEXT_MUTED}`}>{label}</div>
    </div>
  );
}

/** Houses total, online, offline, in alarm, alarm rate, and the live birds in 10K. */
export const WallCounters = observer(function WallCounters({ store }: WallPanelProps) {
  const { t, i18n } = useTranslation();
  const c = store.counters;
  const format = new Intl.NumberFormat(i18n.language === 'zh' ? 'zh-CN' : 'en', {
    maximumFractionDigits: 2,
  });
  return (
    <section className="roost-wall__panel roost-wall__counters">
      <Counter id="total" label={t('wall.counters.total')} value={String(c.total)} />
      <Counter
        id="online"
        label={t('wall.counters.online')}
        value={String(c.online)}
        color={STATE_HEX.normal}
      />
      <Counter
        id="offline"
        label={t('wall.counters.offline')}
        value={String(c.offline)}
        color={STATE_HEX.offline}
      />
      <Counter
        id="alarm"
        label={t('wall.counters.alarm')}
        value={String(c.alarm)}
        color={STATE_HEX.alarm}
      />
      <Counter
        id="rate"
        label={t('wall.counters.alarmRate')}
        value={`${format.format(c.alarmRate)}%`}
      />
      <Counter
        id="alive"
        label={`${t('wall.counters.alive')} (${t('wall.counters.aliveUnit')})`}
        value={format.format(c.alive10k)}
      />
    </section>
  );
});

/** Today's alarms by cause, largest first; an empty state before the first alarm (or endpoint). */
export const WallToday = observer(function WallToday({ store }: WallPanelProps) {
  const { t } = useTranslation();
  const rows = (store.today ?? []).filter((r) => r.count > 0).sort((a, b) => b.count - a.count);
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <section className="roost-wall__panel" data-testid="wall-today">
      <h2 className="roost-wall__heading">{t('wall.today.title')}</h2>
      {rows.length === 0 ? (
        <p className={Classes.TEXT_MUTED}>{t('wall.today.empty')}</p>
      ) : (
        <ul className="roost-wall__bars">
          {rows.map((r) => (
            <li key={r.cause} data-cause={r.cause}>
              <span className="roost-wall__bar-label">{t(`alarms.cause.${r.cause}`)}</span>
              <span className="roost-wall__bar" style={{ width: `${(r.count / max) * 100}%` }} />
              <span className="roost-wall__bar-value">{r.count}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});

/**
 * The ticker's few fixed words (a cause, raised, cleared), each translated once per language:
 * a storm fills all 40 rows each second, and i18next's lookup and interpolation of their 80
 * labels made ~110 KB of garbage a second at 10,000 farms (bench/wall.ts).
 */
interface TickerLabels {
  cause: Record<AlarmCause, string>;
  kind: Record<AlarmChange['kind'], string>;
}

function useTickerLabels(): TickerLabels {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      cause: Object.fromEntries(
        ALARM_CAUSES.map((cause) => [cause, t(`alarms.cause.${cause}`)]),
      ) as Record<AlarmCause, string>,
      kind: { raised: t('wall.ticker.raised'), cleared: t('wall.ticker.cleared') },
    }),
    [t],
  );
}

/**
 * One ticker line, rendered again only when another entry comes to it; the ticker hands it its
 * labels rather than each of its 40 lines subscribing to i18next.
 */
const TickerRow = memo(function TickerRow({
  entry,
  label,
}: {
  entry: TickerEntry;
  label: TickerLabels;
}) {
  const time = formatClock(entry.at);
  return (
    <li
      className={`roost-wall__tick roost-wall__tick--${entry.kind}`}
      data-kind={entry.kind}
      data-house-id={entry.houseId}
    >
      <span className={Classes.TEXT_MUTED}>{time}</span> <strong>{entry.houseName}</strong>{' '}
      {entry.cause && entry.kind === 'raised' ? label.cause[entry.cause] + ' ' : ''}
      <span className="roost-wall__tick-kind">{label.kind[entry.kind]}</span>
    </li>
  );
});

/** The live ticker of raised and cleared alarms, newest first, bounded. */
export const WallTicker = observer(function WallTicker({ store }: WallPanelProps) {
  const { t } = useTranslation();
  const label = useTickerLabels();
  return (
    <section className="roost-wall__panel roost-wall__ticker" data-testid="wall-ticker">
      <h2 className="roost-wall__heading">{t('wall.ticker.title')}</h2>
      {store.ticker.length === 0 ? (
        <p className={Classes.TEXT_MUTED}>{t('wall.ticker.empty')}</p>
      ) : (
        <ul>
          {/* Keyed by line, not by entry: a burst replaces all 40 entries each second, and lines
              kept and rewritten cost a fraction of 40 removed and 40 made (bench/wall.ts). */}
          {store.ticker.map((entry, line) => (
            <TickerRow key={line} entry={entry} label={label} />
          ))}
        </ul>
      )}
    </section>
  );
});

/**
 * What the colours on the map mean: a wall is read by people who never opened the console, and
 * the map's colours are its main message.
 */
export function WallLegend() {
  const { t } = useTranslation();
  return (
    <section className="roost-wall__panel roost-wall__legend" data-testid="wall-legend">
      <h2 className="roost-wall__heading">{t('wall.legend.title')}</h2>
      <ul>
        {WALL_STATES.map((state) => (
          <li key={state}>
            <span className="roost-wall__dot" style={{ background: STATE_HEX[state] }} />
            {t(`wall.state.${state}`)}
          </li>
        ))}
        <li>
          <span className="roost-wall__dot roost-wall__dot--ring" />
          {t('wall.legend.pulsing')}
        </li>
      </ul>
    </section>
  );
}
