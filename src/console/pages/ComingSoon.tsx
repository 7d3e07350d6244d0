import { type ComponentType } from 'react';
import { Classes, NonIdealState, Tag } from '@blueprintjs/core';
import { type SVGIconProps } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { type en } from '../../i18n/en';

export type ComingSoonArea = Exclude<keyof (typeof en)['empty'], 'comingSoon'>;

export interface ComingSoonProps {
  /** Which page: its title and what it will show come from `empty.<area>`. */
  area: ComingSoonArea;
  /** The page's icon, as in the menu. */
  icon: ComponentType<SVGIconProps>;
}

/** The empty state of a page that a later release fills: it says what will be here. */
export function ComingSoon({ area, icon: Icon }: ComingSoonProps) {
  const { t } = useTranslation();
  return (
    <div className="roost-page roost-page--centered" data-testid={`page-${area}`}>
      <NonIdealState
        icon={<Icon size={48} className={Classes.TEXT_MUTED} />}
        title={t(`empty.${area}.title`)}
        description={t(`empty.${area}.description`)}
        action={
          <Tag minimal round>
            {t('empty.comingSoon')}
          </Tag>
        }
      />
    </div>
  );
}
