import { Classes } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { AlertSound } from './alertSound';
import { DrillPanel, MapLegendList } from './DrillPanel';
import { StaleBanner, WallHeader } from './WallHeader';
import { WallMap } from './WallMap';
import { WallStore, type WallSources } from './WallStore';
import { OpenAlarms } from './openAlarms';
import { NightStory } from './nightStory';
import {
  DEFAULT_WALL_LAYOUT,
  type WallLayout,
  type WallPanelId,
  type WallTour,
} from '../../contract/wallLayout';
import { WallLegend } from './WallPanels';
import { PanelColumn } from './panelRegistry';
import { TourPausedBadge } from './TourPausedBadge';
import { placeName, WallTourRunner } from './wallTour';
import { worstFarmIds } from './worstFarms';
import './screen.css';

/**
 * The map's key ('legend') sits on the map, in its lower left corner, wherever a layout lists
 * it: in a column it took the height the panels need at 1280×720. The columns hold the rest.
 */
const inColumn = (id: WallPanelId) => id !== 'legend';
const showsLegendIn = (layout: WallLayout) =>
  layout.left.includes('legend') || layout.right.includes('legend');

/** `?language=1` is English, `0` Chinese; anything else keeps the console's. */
export function languageOfQuery(value: string | null): 'en' | 'zh' | null {
  return value === '0' ? 'zh' : value === '1' ? 'en' : null;
}

export interface WallScreenProps {
  /** Where the wall's data comes from: the console's stores, or a kiosk link's own. */
  sources: Omit<WallSources, 'onRaised'>;
  /** Opens a house's monitor; absent on a read-only (kiosk) wall, where houses are not links. */
  onOpenHouse?: (houseId: number) => void;
  /** A line under the title (the kiosk wall says it is read-only). */
  badge?: ReactNode;
  /** The panels beside the map; a kiosk link's own, else the console's. */
  layout?: WallLayout;
  /** A kiosk link's tour, if it has one. */
  tour?: WallTour | null;
}

/**
 * The alarm overview wall, whoever feeds it. Dark (`Classes.DARK`), sized to the
 * viewport with nothing to scroll. The language follows `?language=`.
 */
export const WallScreen = observer(function WallScreen({
  sources,
  onOpenHouse,
  badge,
  layout = DEFAULT_WALL_LAYOUT,
  tour = null,
}: WallScreenProps) {
  const [params] = useSearchParams();
  const { i18n } = useTranslation();
  const language = languageOfQuery(params.get('language'));
  const [sound] = useState(() => new AlertSound());
  const [store] = useState(
    () => new WallStore({ ...sources, onRaised: (change) => sound.play(change.severity) }),
  );

  useEffect(() => {
    if (language && i18n.language !== language) void i18n.changeLanguage(language);
  }, [language, i18n]);
  useEffect(() => store.setLanguage(i18n.language === 'zh' ? 'zh' : 'en'), [store, i18n.language]);

  // Made once with the wall, like the store: the sources object is new on each parent render.
  const [open] = useState(() => {
    const list = new OpenAlarms(sources.api);
    return { list, start: () => list.start(sources.alarms, () => sources.live.state === 'live') };
  });
  const [night] = useState(() => {
    const story = new NightStory(sources.api, () => store.now);
    return {
      story,
      start: () => story.start(sources.alarms, () => sources.live.state === 'live'),
    };
  });

  // Made once with the wall: a changed tour is read at the kiosk's next load.
  const [runner] = useState(() =>
    tour
      ? new WallTourRunner(
          {
            reset: () => store.drill.reset(),
            selectFarm: (farmId) => store.drill.selectFarm(farmId),
            worstFarmIds: () => worstFarmIds(store.ranking.top),
          },
          tour,
        )
      : null,
  );
  useEffect(() => {
    runner?.start();
    return () => runner?.stop();
  }, [runner]);
  const touched = () => {
    store.drill.touch();
    runner?.pause();
  };
  const spotlit = runner?.place?.kind === 'panel' ? runner.place.panel : null;
  const panels = { store, night: night.story, open: open.list };

  useEffect(() => {
    store.start();
    open.start();
    night.start();
    return () => {
      store.stop();
      open.list.stop();
      night.story.stop();
      sound.dispose();
    };
  }, [store, open, night, sound]);

  return (
    <div
      className={`${Classes.DARK} roost-wall`}
      data-testid="screen-home"
      data-read-only={onOpenHouse === undefined}
      lang={i18n.language === 'zh' ? 'zh-CN' : 'en'}
      data-spotlight={spotlit ?? undefined}
      data-tour-stop={placeName(runner?.place ?? null)}
      onPointerDown={touched}
      onKeyDown={touched}
    >
      <WallHeader store={store} sound={sound} badge={badge} />
      <aside className="roost-wall__left">
        <PanelColumn ids={layout.left.filter(inColumn)} sources={panels} spotlit={spotlit} />
      </aside>
      <main className="roost-wall__center">
        <WallMap store={store} />
        <StaleBanner store={store} />
        <DrillPanel
          store={store}
          onOpenHouse={onOpenHouse}
          cameraApi={onOpenHouse ? sources.api : undefined}
        />
        <MapLegendList store={store} />
        {showsLegendIn(layout) && <WallLegend />}
      </main>
      <aside className="roost-wall__right">
        <PanelColumn ids={layout.right.filter(inColumn)} sources={panels} spotlit={spotlit} />
      </aside>
      {runner?.paused && <TourPausedBadge />}
    </div>
  );
});
