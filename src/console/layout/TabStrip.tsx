import { SmallCrossIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useCallback, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { type TabView } from '../../stores/TabsStore';
import { normalisePath } from '../routeLookup';
import { REDIRECT_PREFIX } from '../routes';
import { type RouteTitleKey } from '../routeTypes';
import { useStores } from '../useStores';
import { TabContextMenu, type TabAction } from './TabContextMenu';

interface MenuState {
  view: TabView;
  left: number;
  top: number;
}

/** The tab strip of visited views. */
export const TabStrip = observer(function TabStrip() {
  const { tabs } = useStores();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const current = normalisePath(location.pathname);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);

  /** Closing the active tab goes to the last remaining tab, else home. */
  const leaveIfClosed = () => {
    if (!tabs.isOpen(current)) void navigate(tabs.lastViewPath());
  };

  const handleAction = (action: TabAction, view: TabView) => {
    switch (action) {
      case 'refresh':
        tabs.delCachedView(view.path);
        void navigate(`${REDIRECT_PREFIX}${view.fullPath}`, { replace: true });
        break;
      case 'close':
        if (tabs.delView(view.path)) leaveIfClosed();
        break;
      case 'closeOthers':
        tabs.delOthersViews(view.path);
        if (view.path !== current) void navigate(view.fullPath);
        break;
      case 'closeAll':
        tabs.delAllViews();
        leaveIfClosed();
        break;
    }
  };

  const handleContextMenu = (view: TabView) => (event: MouseEvent) => {
    event.preventDefault();
    setMenu({ view, left: event.clientX, top: event.clientY });
  };

  return (
    <nav className="roost-tabs" aria-label={t('tabs.label')} data-testid="tab-strip">
      {tabs.visitedViews.map((view) => {
        const active = view.path === current;
        const title = t(`route.${view.titleKey as RouteTitleKey}`);
        return (
          <div
            key={view.path}
            className={`roost-tab${active ? ' roost-tab--active' : ''}`}
            data-testid="tab"
            data-path={view.path}
            data-affix={view.affix}
            onContextMenu={handleContextMenu(view)}
          >
            <Link
              to={view.fullPath}
              className="roost-tab__link"
              aria-current={active ? 'page' : undefined}
            >
              {title}
            </Link>
            {!view.affix && (
              <button
                type="button"
                className="roost-tab__close"
                aria-label={t('tabs.closeTab', { title })}
                data-testid="tab-close-button"
                onClick={() => handleAction('close', view)}
              >
                <SmallCrossIcon size={14} />
              </button>
            )}
          </div>
        );
      })}
      {menu && <TabContextMenu {...menu} onAction={handleAction} onClose={closeMenu} />}
    </nav>
  );
});
