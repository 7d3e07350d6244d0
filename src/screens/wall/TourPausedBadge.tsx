import { useTranslation } from 'react-i18next';

/** Says, large enough to read across the room, that the tour waits for whoever touched the wall. */
export function TourPausedBadge() {
  const { t } = useTranslation();
  return (
    <div className="roost-wall__tour-paused" data-testid="tour-paused" role="status">
      <strong>{t('wall.tour.paused')}</strong> <span>{t('wall.tour.pausedHint')}</span>
    </div>
  );
}
