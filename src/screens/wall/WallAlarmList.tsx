import { Classes } from '@blueprintjs/core';
import { computed } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TFunction } from 'i18next';
import { type Alarm, type AlarmCause } from '../../contract/alarms';
import { METRICS } from '../../contract/metrics';
import { formatClock, formatDateTime } from '../../i18n/dates';
import { measure } from '../../i18n/numbers';
import { openFor, type OpenAlarms } from './openAlarms';
import { type WallStore } from './WallStore';

/** The metric a threshold cause is about, when its subject does not name one. */
const METRIC_OF_CAUSE: Partial<Record<AlarmCause, string>> = {
  temperatureHigh: 'temperature',
  temperatureLow: 'temperature',
  humidityHigh: 'humidity',
  humidityLow: 'humidity',
  co2High: 'co2',
  nh3High: 'nh3',
  pressureHigh: 'pressure',
  pressureLow: 'pressure',
};

/** "31.5 ℃ / limit 30 ℃" for a threshold alarm; the controller's own text otherwise. */
export function valueText(t: TFunction, alarm: Alarm): string {
  const metric =
    METRICS.find((m) => m.key === alarm.subject) ??
    METRICS.find((m) => m.key === METRIC_OF_CAUSE[alarm.cause]);
  if (metric && alarm.value !== null) {
    // A figure and its unit stay on one line.
    const whole = (n: number) => measure(n, metric.unit).replace(' ', '\u00a0');
    const value = whole(alarm.value);
    return alarm.limit === null
      ? value
      : t('wall.open.valueLimit', { value, limit: whole(alarm.limit) });
  }
  return alarm.text ?? '';
}

function AlarmRow({ alarm, now }: { alarm: Alarm; now: number }) {
  const { t } = useTranslation();
  const detail = valueText(t, alarm);
  return (
    <li
      className={`roost-wall__alarm roost-wall__alarm--${alarm.severity}`}
      data-alarm-id={alarm.id}
      data-severity={alarm.severity}
      data-acknowledged={alarm.state === 'acknowledged'}
    >
      <span className="roost-wall__alarm-cause">
        {t(`alarms.severity.${alarm.severity}`)} · {t(`alarms.cause.${alarm.cause}`)}
        {detail && <span className="roost-wall__alarm-value"> {detail}</span>}
      </span>
      <span className="roost-wall__alarm-age" data-testid="alarm-age">
        {openFor(t, alarm.raisedAt, now)}
      </span>
      <span className={`roost-wall__alarm-where ${Classes.TEXT_MUTED}`}>
        {alarm.farmName} · {alarm.houseName}
      </span>
      <span
        className={`roost-wall__alarm-ack${alarm.acknowledgedBy ? '' : ' roost-wall__alarm-ack--none'}`}
        data-testid="alarm-ack"
      >
        {alarm.acknowledgedBy
          ? t('wall.open.ackBy', { name: alarm.acknowledgedBy })
          : t('wall.open.unacknowledged')}
      </span>
    </li>
  );
}

/** The empty list says since when nothing is open, naming the alarm that ended last. */
function NothingOpen({
  open,
  now,
  timeZone,
}: {
  open: OpenAlarms;
  now: number;
  timeZone: string | undefined;
}) {
  const { t } = useTranslation();
  const last = open.lastCleared;
  if (!open.loaded) return <p className={Classes.TEXT_MUTED}>{t('wall.open.loading')}</p>;
  if (!last?.clearedAt) return <p data-testid="alarms-none">{t('wall.open.noneEver')}</p>;
  const options = { seconds: false, timeZone };
  const dayOf = (at: string | number) => formatDateTime(at, options).slice(0, 10);
  const time =
    dayOf(last.clearedAt) === dayOf(now)
      ? formatClock(last.clearedAt, options)
      : formatDateTime(last.clearedAt, options);
  return (
    <p data-testid="alarms-none">
      {t('wall.open.noneSince', {
        time,
        cause: t(`alarms.cause.${last.cause}`),
        farm: last.farmName,
        house: last.houseName,
      })}
    </p>
  );
}

/**
 * "What is wrong now": the open alarms, worst first, as many as the panel holds whole, and how
 * many less grave ones are left out. Ages move once a minute, not with the wall's clock.
 */
export const WallAlarmList = observer(function WallAlarmList({
  store,
  open,
}: {
  store: WallStore;
  open: OpenAlarms;
}) {
  const { t, i18n } = useTranslation();
  const [minute] = useState(() => computed(() => Math.floor(store.now / 60_000)));
  const now = minute.get() * 60_000;
  const panel = useRef<HTMLElement>(null);
  const list = useRef<HTMLUListElement>(null);
  // How many rows fit: measured from the rows drawn, so no row is ever cut at the bottom.
  const [fit, setFit] = useState(Infinity);
  // Each new size or font asks for a new measure, also when every row fitted before: a panel
  // that shrinks (the production panel arriving under it) leaves fit at Infinity, and setting
  // it to Infinity again would not measure at all.
  const [measure, setMeasure] = useState(0);
  const shown = open.list.slice(0, fit);
  const more = open.total - shown.length;
  // A new list, size or language (Chinese rows wrap differently): every row drawn once, then
  // as many kept as are whole.
  useLayoutEffect(() => setFit(Infinity), [open.list, i18n.language]);
  useLayoutEffect(() => {
    // The panel's size comes from the grid, never from its rows (the list's would, in a loop).
    const element = panel.current;
    if (!element) return;
    const again = () => {
      setFit(Infinity);
      setMeasure((n) => n + 1);
    };
    const observer = new ResizeObserver(again);
    observer.observe(element);
    // A web font arriving changes how the rows wrap, not the panel's size.
    document.fonts.addEventListener('loadingdone', again);
    return () => {
      observer.disconnect();
      document.fonts.removeEventListener('loadingdone', again);
    };
  }, []);
  useLayoutEffect(() => {
    const element = list.current;
    if (!element || fit !== Infinity) return;
    const rows = [...element.children];
    const bottom = element.getBoundingClientRect().bottom;
    if (rows.every((row) => row.getBoundingClientRect().bottom <= bottom + 0.5)) return;
    // Some are left out: room for the "and more" line below (as tall as a line of its text).
    const line = parseFloat(getComputedStyle(element).fontSize) * 0.8 * 2;
    const whole = rows.filter((row) => row.getBoundingClientRect().bottom <= bottom - line).length;
    setFit(Math.max(1, whole));
  }, [fit, open.list, i18n.language, measure]);
  return (
    <section ref={panel} className="roost-wall__panel roost-wall__open" data-testid="wall-alarms">
      <h2 className="roost-wall__heading">
        {t('wall.open.title')}
        {open.total > 0 && (
          <span className="roost-wall__heading-count" data-testid="alarms-total">
            {t('wall.open.count', { count: open.total })}
          </span>
        )}
      </h2>
      {open.list.length === 0 && (
        <NothingOpen open={open} now={now} timeZone={store.timeZone ?? undefined} />
      )}
      <ul ref={list} className="roost-wall__alarms">
        {shown.map((alarm) => (
          <AlarmRow key={alarm.id} alarm={alarm} now={now} />
        ))}
      </ul>
      {more > 0 && (
        <p className={Classes.TEXT_MUTED} data-testid="alarms-more">
          {t('wall.open.more', { count: more })}
        </p>
      )}
    </section>
  );
});
