import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { WallStore } from './WallStore';

/** The farms ranked by open alarms: the heading only, until the ranking itself joins it. */
export const WallRanking = observer(function WallRanking({ store: _store }: { store: WallStore }) {
  const { t } = useTranslation();
  return (
    <section className="roost-wall__panel" data-testid="wall-ranking">
      <h2 className="roost-wall__heading">{t('wall.ranking.title')}</h2>
    </section>
  );
});
