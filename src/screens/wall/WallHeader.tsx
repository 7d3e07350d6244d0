import { Button, Callout, Classes, Intent } from '@blueprintjs/core';
import { VolumeOffIcon, VolumeUpIcon, WarningSignIcon } from '@blueprintjs/icons';
import { reaction } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ALARM_SEVERITIES } from '../../contract/alarms';
import { browserTimeZone, formatDateTime } from '../../i18n/dates';
import { type AlertSound } from './alertSound';
import { type WallPanelProps } from './WallPanels';

export interface WallHeaderProps extends WallPanelProps {
  /** The audible alert and its per-severity switches. */
  sound: AlertSound;
  /** Shown beside the title (a kiosk wall says it is read-only). */
  badge?: ReactNode;
}

/** Title, clock, the data's freshness and the sound switches. */
export const WallHeader = observer(function WallHeader({ store, sound, badge }: WallHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className="roost-wall__header">
      <h1 className="roost-wall__title">
        {t('wall.title')}
        {badge}
      </h1>
      <div className="roost-wall__sound" aria-label={t('wall.sound.title')}>
        {ALARM_SEVERITIES.map((severity) => {
          const label = t(sound.enabled[severity] ? 'wall.sound.on' : 'wall.sound.off', {
            severity: t(`alarms.severity.${severity}`),
          });
          return (
            <Button
              key={severity}
              variant="minimal"
              data-testid={`wall-sound-${severity}`}
              aria-pressed={sound.enabled[severity]}
              title={label}
              aria-label={label}
              icon={sound.enabled[severity] ? <VolumeUpIcon /> : <VolumeOffIcon />}
              text={t(`alarms.severity.${severity}`)}
              onClick={() => sound.toggle(severity)}
            />
          );
        })}
      </div>
      <WallClock store={store} />
    </header>
  );
});

/**
 * The clock, written into its element each second outside React: a render of the clock's
 * component, its translations and React's commit were ~0.3 ms of every second's script on a
 * wall at 10,000 farms (bench/wall.ts), where the rest of the second is a storm's update.
 */
function ClockTime({ store }: WallPanelProps) {
  const ref = useRef<HTMLTimeElement>(null);
  useEffect(
    () =>
      reaction(
        // The zone is known once the map is read: the clock is written again then, not a
        // second later.
        () => [store.now, store.timeZone] as const,
        ([at, timeZone]) => {
          const element = ref.current;
          if (!element) return;
          const now = new Date(at);
          // The text node's data, not textContent: that would make a new node each second.
          const text = element.firstChild;
          // The deployment's zone, once known: the wall's days and hours are counted in it.
          const written = formatDateTime(now, { timeZone: timeZone ?? undefined });
          if (text instanceof Text) text.data = written;
          else element.textContent = written;
          element.dateTime = now.toISOString();
        },
        { fireImmediately: true },
      ),
    [store],
  );
  return <time data-testid="wall-clock" ref={ref} />;
}

/**
 * The clock and the data's freshness: their own observer, so a change of freshness renders two
 * lines of text and not the header's buttons. While live the freshness does not change with the
 * clock (dataAgeMs does not read it), so nothing here renders each second.
 */
const WallClock = observer(function WallClock({ store }: WallPanelProps) {
  const { t } = useTranslation();
  const age = store.dataAgeMs;
  const ageText =
    age === null
      ? t('wall.fresh.never')
      : age === 0
        ? t('wall.fresh.live')
        : t('wall.fresh.age', {
            age:
              age < 60_000
                ? t('wall.fresh.seconds', { count: Math.round(age / 1000) })
                : t('wall.fresh.minutes', { count: Math.floor(age / 60_000) }),
          });
  return (
    <div className="roost-wall__clock">
      <span className="roost-wall__clock-line">
        <ClockTime store={store} />
        <ZoneName zone={store.timeZone} />
      </span>
      <span
        className={`roost-wall__fresh ${store.stale ? 'roost-wall__fresh--stale' : ''} ${Classes.TEXT_MUTED}`}
        data-testid="wall-freshness"
        data-live-state={store.liveState}
      >
        {ageText}
      </span>
    </div>
  );
});

/**
 * The deployment's zone as an offset ("GMT+8"), beside the clock only when the screen's browser
 * is in another zone: the clock, the night's hours and "today" are then not the room's own.
 */
function ZoneName({ zone }: { zone: string | null }) {
  const shown = useMemo(() => (zone === null ? null : offsetName(zone)), [zone]);
  if (zone === null || zone === browserTimeZone() || shown === null) return null;
  return (
    <span className={`roost-wall__zone ${Classes.TEXT_MUTED}`} data-testid="wall-zone" title={zone}>
      {shown}
    </span>
  );
}

function offsetName(zone: string): string | null {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' });
    return parts.formatToParts(new Date()).find((p) => p.type === 'timeZoneName')?.value ?? null;
  } catch {
    return null;
  }
}

/** Data older than a minute says so across the top of the map. */
export const StaleBanner = observer(function StaleBanner({ store }: WallPanelProps) {
  const { t } = useTranslation();
  if (!store.stale) return null;
  return (
    <Callout
      className="roost-wall__stale"
      intent={Intent.WARNING}
      icon={<WarningSignIcon />}
      data-testid="wall-stale"
    >
      {t('wall.stale')}
    </Callout>
  );
});
