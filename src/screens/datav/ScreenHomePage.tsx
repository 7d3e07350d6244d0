import { Classes } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useStores } from '../../console/useStores';
import { AlertSound } from './alertSound';
import { DrillPanel, MapLegendList, monitorUrl } from './DrillPanel';
import { StaleBanner, WallHeader } from './WallHeader';
import { WallMap } from './WallMap';
import { WallCounters, WallTicker, WallToday } from './WallPanels';
import { WallStore } from './WallStore';
import './screen.css';

/** Spec §2: `?language=1` is English, `0` Chinese; anything else keeps the console's. */
export function languageOfQuery(value: string | null): 'en' | 'zh' | null {
  return value === '0' ? 'zh' : value === '1' ? 'en' : null;
}

/**
 * /screenDatav/home: the alarm overview wall (issue 7). Its own chunk (maplibre and deck.gl
 * stay out of the console's first load), dark (STYLE.md #14), sized to the viewport with
 * nothing to scroll. The console's live connection feeds it; it never opens a socket itself.
 */
export const ScreenHomePage = observer(function ScreenHomePage() {
  const [params] = useSearchParams();
  const { i18n } = useTranslation();
  const stores = useStores();
  const navigate = useNavigate();
  const language = languageOfQuery(params.get('language'));
  const [sound] = useState(() => new AlertSound());
  const [store] = useState(
    () =>
      new WallStore({
        api: stores.api,
        houses: stores.houses,
        live: stores.live,
        onRaised: (change) => sound.play(change.severity),
      }),
  );

  useEffect(() => {
    if (language && i18n.language !== language) void i18n.changeLanguage(language);
  }, [language, i18n]);
  useEffect(() => store.setLanguage(i18n.language === 'zh' ? 'zh' : 'en'), [store, i18n.language]);

  useEffect(() => {
    store.start();
    return () => {
      store.stop();
      sound.dispose();
    };
  }, [store, sound]);

  const handleOpenHouse = (houseId: number) => {
    const url = monitorUrl(houseId);
    // Embedded in the console (alarm overview), the monitor opens in the console, not the frame.
    if (window.top && window.top !== window) window.top.location.assign(url);
    else void navigate(url);
  };

  return (
    <div
      className={`${Classes.DARK} roost-wall`}
      data-testid="screen-home"
      lang={i18n.language === 'zh' ? 'zh-CN' : 'en'}
      onPointerDown={() => store.touch()}
      onKeyDown={() => store.touch()}
    >
      <WallHeader store={store} sound={sound} />
      <aside className="roost-wall__left">
        <WallCounters store={store} />
        <WallToday store={store} />
      </aside>
      <main className="roost-wall__center">
        <WallMap store={store} />
        <StaleBanner store={store} />
        <DrillPanel store={store} onOpenHouse={handleOpenHouse} />
        <MapLegendList store={store} />
      </main>
      <aside className="roost-wall__right">
        <WallTicker store={store} />
      </aside>
    </div>
  );
});
