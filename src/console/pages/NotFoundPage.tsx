import { Button, Intent, NonIdealState } from '@blueprintjs/core';
import { HomeIcon, SearchIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { HOME_PATH } from '../paths';

/** /404: an unknown address, or one the role may not open. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="roost-page roost-page--centered" data-testid="page-not-found">
      <NonIdealState
        icon={<SearchIcon size={48} />}
        title={t('notFound.title')}
        description={t('notFound.description')}
        action={
          <Button
            intent={Intent.PRIMARY}
            icon={<HomeIcon />}
            text={t('notFound.home')}
            onClick={() => void navigate(HOME_PATH)}
          />
        }
      />
    </div>
  );
}
