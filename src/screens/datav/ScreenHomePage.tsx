import { Classes, NonIdealState } from '@blueprintjs/core';
import { MapIcon } from '@blueprintjs/icons';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

/**
 * /screenDatav/home: the alarm overview wall screen (a later issue). `?language=1` is English,
 * `0` Chinese (spec §2). Dark, as a wall screen is (STYLE.md #14).
 */
export function ScreenHomePage() {
  const [params] = useSearchParams();
  const { t, i18n } = useTranslation();
  const language =
    params.get('language') === '0' ? 'zh' : params.get('language') === '1' ? 'en' : null;
  useEffect(() => {
    if (language && i18n.language !== language) void i18n.changeLanguage(language);
  }, [language, i18n]);
  return (
    <div className={`${Classes.DARK} roost-screen`} data-testid="screen-home">
      <NonIdealState
        icon={<MapIcon size={64} />}
        title={t('empty.screen.title')}
        description={t('empty.screen.description')}
        action={<span className={Classes.TEXT_MUTED}>{t('empty.comingSoon')}</span>}
      />
    </div>
  );
}
