import { observer } from 'mobx-react-lite';
import { useNavigate } from 'react-router-dom';
import { monitorUrl } from '../../screens/wall/DrillPanel';
import { WallScreen } from '../../screens/wall/WallScreen';
import { useStores } from '../useStores';

/**
 * /screenDatav/home: the wall for a signed-in administrator. Its own chunk (maplibre and
 * deck.gl stay out of the console's first load). The console's live connection feeds it; it
 * never opens a socket itself.
 */
export const WallPage = observer(function WallPage() {
  const stores = useStores();
  const navigate = useNavigate();
  const handleOpenHouse = (houseId: number) => {
    const url = monitorUrl(houseId);
    // Embedded in the console (alarm overview), the monitor opens in the console, not the frame.
    if (window.top && window.top !== window) window.top.location.assign(url);
    else void navigate(url);
  };
  return (
    <WallScreen
      sources={{
        api: stores.api,
        houses: stores.houses,
        live: stores.live,
        alarms: stores.alarms,
      }}
      onOpenHouse={handleOpenHouse}
    />
  );
});
