import { Classes } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { METRIC_BY_KEY, metricLabel } from '../../contract/metrics';
import { type RankedFarm } from '../../contract/wallRanking';
import { measure } from '../../i18n/numbers';
import { type WallPanelProps } from './WallPanels';
import { WholeRows } from './wholeRows';

/**
 * The ranking's rows that fit whole (WholeRows), checked again when rows come or go. A row's
 * new text that changes its height is the observer's to see.
 */
function useWholeRows(count: number) {
  const list = useRef<HTMLOListElement>(null);
  const [rows] = useState(() => new WholeRows());
  useLayoutEffect(() => (list.current ? rows.attach(list.current) : undefined), [rows]);
  useLayoutEffect(() => rows.rowsChanged(), [rows, count]);
  return list;
}

/**
 * "Who needs someone": the farms with the most open alarms, then those furthest from target,
 * each naming its worst house. Touching one drills the map into it, as the tour does.
 */
export const WallRanking = observer(function WallRanking({ store }: WallPanelProps) {
  const { t, i18n } = useTranslation();
  const zh = i18n.language === 'zh';
  const farms = store.ranking.top;
  /** "House 3 · Temperature 31.2 ℃, 64 % to the alarm limit", or "on target". */
  const distanceText = ({ distance: d, offline }: RankedFarm) =>
    offline
      ? t('wall.ranking.offline')
      : d
        ? t(d.share >= 1 ? 'wall.ranking.past' : 'wall.ranking.off', {
            house: d.houseName,
            metric: metricLabel(d.metric, zh ? 'zh' : 'en'),
            value: measure(d.value, METRIC_BY_KEY.get(d.metric)?.unit ?? ''),
            limit: measure(d.limit, METRIC_BY_KEY.get(d.metric)?.unit ?? ''),
            way: `${Math.round(d.share * 100)} %`,
          })
        : t('wall.ranking.onTarget');
  const list = useWholeRows(farms.length);
  return (
    <section className="roost-wall__panel roost-wall__ranking" data-testid="wall-ranking">
      <h2 className="roost-wall__heading">{t('wall.ranking.title')}</h2>
      {farms.length === 0 && <p className={Classes.TEXT_MUTED}>{t('wall.ranking.empty')}</p>}
      <ol ref={list}>
        {farms.map((farm, place) => (
          // Kept by place, not by farm: at 10,000 farms the worst eight can change with every
          // status batch, and rows keyed by farm were all removed and made again each second
          // (each new row then measured by WholeRows' observer); a kept row changes its text.
          <li
            key={place}
            data-testid="wall-ranking-row"
            data-farm-id={farm.farmId}
            data-alarms={farm.alarmCount}
            data-selected={store.drill.farmId === farm.farmId}
          >
            <button type="button" onClick={() => store.drill.selectFarm(farm.farmId)}>
              <span className="roost-wall__ranking-name">{farm.name}</span>
              {farm.alarmCount > 0 && (
                <span className="roost-wall__ranking-alarms">
                  {t('wall.ranking.alarms', { count: farm.alarmCount })}
                </span>
              )}
              <span className={`roost-wall__ranking-off ${Classes.TEXT_MUTED}`}>
                {distanceText(farm)}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
});
