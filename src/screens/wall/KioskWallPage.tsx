import { observable, runInAction } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApiText } from '../../api/client';
import { LiveConnection } from '../../realtime/LiveConnection';
import { AlarmStore } from '../../stores/AlarmStore';
import { HousesStore } from '../../stores/HousesStore';
import { LiveStore } from '../../stores/LiveStore';
import { WallScreen } from './WallScreen';
import { createKioskApi } from './kioskApi';
import { kioskSelfSchema, type KioskSelf } from '../../contract/wallKiosk';
import { DEFAULT_WALL_LAYOUT } from '../../contract/wallLayout';

const API_TEXTS = {
  network: 'api.network',
  timeout: 'api.timeout',
  badAnswer: 'api.badAnswer',
  loginFailed: 'wall.kiosk.ended',
} as const;

/** The kiosk token from the address's fragment (`#token`), which no request ever carries. */
function tokenOfLocation(): string | null {
  const token = decodeURIComponent(window.location.hash.replace(/^#/, '')).trim();
  return token === '' ? null : token;
}

/** A kiosk wall's own stores and live connection: nothing of the console's session is used. */
function createKiosk(
  token: string,
  language: () => 'en' | 'zh',
  t: (key: (typeof API_TEXTS)[ApiText]) => string,
) {
  const state = observable.box<'running' | 'ended'>('running');
  const stores = { houses: new HousesStore(), live: new LiveStore(), alarms: new AlarmStore() };
  const api = createKioskApi({
    token,
    locale: language,
    text: (key) => t(API_TEXTS[key]),
    ended: () => runInAction(() => state.set('ended')),
  });
  const connection = new LiveConnection(api, () => token, stores);
  stores.houses.useFeed(connection);
  return { state, stores, api, connection };
}

/**
 * /screenDatav/kiosk#<token>: the wall opened by a kiosk link, without a sign-in.
 * Read-only: houses do not open the console's monitor. The server scopes what it sees and ends
 * its socket when the link is revoked; the next answer (401) puts this screen in its place.
 */
export const KioskWallPage = observer(function KioskWallPage() {
  const { t, i18n } = useTranslation();
  const [token] = useState(tokenOfLocation);
  const [kiosk] = useState(() =>
    token
      ? createKiosk(
          token,
          () => (i18n.language === 'zh' ? 'zh' : 'en'),
          (key) => i18n.t(key),
        )
      : null,
  );
  const ended = kiosk?.state.get() === 'ended';
  // The link's panels and tour, read once per load: an edit shows at the wall's next load.
  const [display, setDisplay] = useState<Pick<KioskSelf, 'layout' | 'tour'> | null>(null);

  useEffect(() => {
    if (!kiosk) return;
    let live = true;
    kiosk.api.get('/wall/kiosk/self', { schema: kioskSelfSchema, quiet: () => true }).then(
      (self) => live && setDisplay(self),
      // Unreachable for now: the wall still opens, with the console's panels and no tour.
      () => live && setDisplay({ layout: DEFAULT_WALL_LAYOUT, tour: null }),
    );
    return () => {
      live = false;
    };
  }, [kiosk]);

  useEffect(() => {
    if (!kiosk || ended) return;
    kiosk.connection.start();
    return () => kiosk.connection.stop();
  }, [kiosk, ended]);

  if (!kiosk || ended)
    return (
      <div className="roost-wall-ended" data-testid="kiosk-ended" role="alert">
        {t(kiosk ? 'wall.kiosk.ended' : 'wall.kiosk.missing')}
      </div>
    );
  if (!display) return null;
  return (
    <WallScreen
      layout={display.layout}
      tour={display.tour}
      sources={{
        api: kiosk.api,
        houses: kiosk.stores.houses,
        live: kiosk.stores.live,
        alarms: kiosk.stores.alarms,
      }}
      badge={
        <span className="roost-wall__badge" data-testid="kiosk-badge">
          {t('wall.kiosk.readOnly')}
        </span>
      }
    />
  );
});
