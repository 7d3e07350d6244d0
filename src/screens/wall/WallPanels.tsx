import { Classes } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { reaction } from 'mobx';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { WALL_STATES } from '../../contract/wall';
import { ALARM_CAUSES, type AlarmCause } from '../../contract/alarms';
import { STATE_HEX } from './constants';
import { grouped } from '../../i18n/numbers';
import { TickerLines, type TickerLabels } from './tickerLines';
import { type WallStore } from './WallStore';

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

/** The counters' labels in one language: the counters render with every status batch. */
function useCounterLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      total: t('wall.counters.total'),
      online: t('wall.counters.online'),
      offline: t('wall.counters.offline'),
      alarm: t('wall.counters.alarm'),
      rate: t('wall.counters.alarmRate'),
      alive: `${t('wall.counters.alive')} (${t('wall.counters.aliveUnit')})`,
    }),
    [t],
  );
}

/** Houses total, online, offline, in alarm, alarm rate, and the live birds in 10K. */
export const WallCounters = observer(function WallCounters({ store }: WallPanelProps) {
  const { i18n } = useTranslation();
  const label = useCounterLabels();
  const c = store.counters;
  return (
    <section className="roost-wall__panel roost-wall__counters" data-testid="wall-counters">
      <Counter id="total" label={label.total} value={String(c.total)} />
      <Counter id="online" label={label.online} value={String(c.online)} color={STATE_HEX.normal} />
      <Counter
        id="offline"
        label={label.offline}
        value={String(c.offline)}
        color={STATE_HEX.offline}
      />
      <Counter id="alarm" label={label.alarm} value={String(c.alarm)} color={STATE_HEX.alarm} />
      <Counter id="rate" label={label.rate} value={`${grouped(c.alarmRate, i18n.language, 2)}%`} />
      <Counter id="alive" label={label.alive} value={grouped(c.alive10k, i18n.language, 2)} />
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
 * The live ticker of raised and cleared alarms, newest first, bounded. Its lines are written
 * outside React (TickerLines): this component renders again only when the ticker empties or
 * fills, or the language changes.
 */
export const WallTicker = observer(function WallTicker({ store }: WallPanelProps) {
  const { t } = useTranslation();
  const labels = useTickerLabels();
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const lines = new TickerLines(list.current!, labels, () => store.timeZone);
    const dispose = reaction(
      () => store.ticker.entries,
      (entries) => lines.show(entries),
      {
        fireImmediately: true,
      },
    );
    return () => {
      dispose();
      // A new language makes new lines: these would stay beside them.
      lines.clear();
    };
  }, [store, labels]);
  return (
    <section className="roost-wall__panel roost-wall__ticker" data-testid="wall-ticker">
      <h2 className="roost-wall__heading">{t('wall.ticker.title')}</h2>
      {store.ticker.empty && <p className={Classes.TEXT_MUTED}>{t('wall.ticker.empty')}</p>}
      <ul ref={list} />
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
