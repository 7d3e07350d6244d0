import { Button, Callout, Classes, Intent } from '@blueprintjs/core';
import { VolumeOffIcon, VolumeUpIcon, WarningSignIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ALARM_SEVERITIES } from '../../contract/alarms';
import { formatDateTime } from '../../i18n/dates';
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
 * The clock and the data's freshness: their own observer, so the tick each second renders two
 * lines of text and not the header's buttons.
 */
const WallClock = observer(function WallClock({ store }: WallPanelProps) {
  const { t } = useTranslation();
  const now = new Date(store.now);
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
      <time data-testid="wall-clock" dateTime={now.toISOString()}>
        {formatDateTime(now)}
      </time>
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
