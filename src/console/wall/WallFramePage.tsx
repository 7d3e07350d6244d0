import { Button } from '@blueprintjs/core';
import { FullscreenIcon, LinkIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SCREEN_PATH } from '../paths';
import { useStores } from '../useStores';
import { KioskLinksDialog } from './KioskLinks';

/** The data screen's address; its language query is 1 for English, 0 for Chinese. */
export function screenAddress(language: 'en' | 'zh'): string {
  return `${SCREEN_PATH}?language=${language === 'en' ? 1 : 0}`;
}

/**
 * /alarmOverview/index: the alarm screen embedded full width, in the console's language, with
 * a button that puts the screen (not the console around it) in full screen.
 */
export const WallFramePage = observer(function WallFramePage() {
  const { ui } = useStores();
  const { t } = useTranslation();
  const frame = useRef<HTMLIFrameElement>(null);
  const [kioskOpen, setKioskOpen] = useState(false);
  return (
    <div className="roost-wall-frame" style={{ position: 'relative' }}>
      <iframe
        ref={frame}
        className="roost-embedded-screen"
        data-testid="wall-frame-frame"
        title={t('route.wallFrame')}
        src={screenAddress(ui.language)}
        allow="fullscreen; autoplay"
      />
      {/* Bottom centre: over the map's edge, not over the wall's legend or ticker panels. */}
      <div
        style={{
          position: 'absolute',
          bottom: 12,
          left: '50%',
          transform: 'translateX(-50%)',
          display: 'flex',
          gap: 8,
        }}
      >
        <Button
          icon={<FullscreenIcon />}
          text={t('wall.fullscreen')}
          data-testid="wall-frame-fullscreen"
          disabled={!document.fullscreenEnabled}
          onClick={() => void frame.current?.requestFullscreen()}
        />
        {/* The page is for administrators only, as are kiosk links (the API refuses others). */}
        <Button
          icon={<LinkIcon />}
          text={t('wall.kiosk.manage')}
          data-testid="wall-frame-kiosk"
          onClick={() => setKioskOpen(true)}
        />
      </div>
      <KioskLinksDialog isOpen={kioskOpen} onClose={() => setKioskOpen(false)} />
    </div>
  );
});
