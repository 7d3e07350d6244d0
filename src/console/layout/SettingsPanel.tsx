import { Classes, Drawer, DrawerSize, Radio, RadioGroup, Switch } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { LAYOUT_SETTINGS, SIZES, type LayoutSetting, type Size } from '../../stores/UiStore';
import { useStores } from '../useStores';

export interface SettingsPanelProps {
  isOpen: boolean;
  onClose: () => void;
}

/**
 * The console's own settings: the size of the pages and three layout switches. Each change
 * applies at once and is remembered in this browser, so there is nothing to save.
 */
export const SettingsPanel = observer(function SettingsPanel({
  isOpen,
  onClose,
}: SettingsPanelProps) {
  const { ui } = useStores();
  const { t } = useTranslation();
  return (
    <Drawer
      isOpen={isOpen}
      onClose={onClose}
      title={t('settings.title')}
      size={ui.isMobile ? DrawerSize.LARGE : DrawerSize.SMALL}
      className="roost-settings"
    >
      <div className={Classes.DRAWER_BODY}>
        <div className={Classes.DIALOG_BODY}>
          <RadioGroup
            label={t('settings.size')}
            inline
            selectedValue={ui.size}
            onChange={(event) => ui.setSize(event.currentTarget.value as Size)}
          >
            {[...SIZES].reverse().map((size) => (
              <Radio
                key={size}
                value={size}
                label={t(`settings.sizes.${size}`)}
                data-testid={`size-${size}`}
              />
            ))}
          </RadioGroup>
          {(Object.keys(LAYOUT_SETTINGS) as LayoutSetting[]).map((setting) => (
            <Switch
              key={setting}
              checked={ui.settings[setting]}
              label={t(`settings.${setting}`)}
              data-testid={`setting-${setting}`}
              onChange={(event) => ui.setSetting(setting, event.currentTarget.checked)}
            />
          ))}
          <p className={Classes.TEXT_MUTED}>{t('settings.remembered')}</p>
        </div>
      </div>
    </Drawer>
  );
});
