import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ProgressBarProps {
  /** Whether something is loading (a navigation or a request). */
  active: boolean;
}

/** A short wait shows nothing: the bar appears only for work that takes longer than this. */
const SHOW_DELAY_MS = 120;
/** How long the full bar stays before it fades once the work is done. */
const FINISH_MS = 300;

/** The thin top progress bar, without a spinner. */
export function ProgressBar({ active }: ProgressBarProps) {
  // `shown` follows `active` with a delay each way: late to appear, a moment to finish.
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(active), active ? SHOW_DELAY_MS : FINISH_MS);
    return () => clearTimeout(timer);
  }, [active]);
  const phase = shown ? (active ? 'running' : 'finishing') : 'idle';
  return (
    <div
      className={`roost-progress roost-progress--${phase}`}
      role="progressbar"
      aria-label={t('common.loading')}
      aria-hidden={phase === 'idle'}
      data-testid="progress-bar"
      data-active={active}
    >
      <div className="roost-progress__bar" />
    </div>
  );
}
