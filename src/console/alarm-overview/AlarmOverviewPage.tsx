import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { SCREEN_PATH } from '../routes';
import { useStores } from '../useStores';

/** Spec §2: the data screen's address; its language query is 1 for English, 0 for Chinese. */
export function screenAddress(language: 'en' | 'zh'): string {
  return `${SCREEN_PATH}?language=${language === 'en' ? 1 : 0}`;
}

/** /alarmOverview/index: the alarm screen embedded full width. */
export const AlarmOverviewPage = observer(function AlarmOverviewPage() {
  const { ui } = useStores();
  const { t } = useTranslation();
  return (
    <iframe
      className="roost-embedded-screen"
      data-testid="alarm-overview-frame"
      title={t('route.alarmOverview')}
      src={screenAddress(ui.language)}
    />
  );
});
