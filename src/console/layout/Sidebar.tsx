import { ChevronDownIcon, FeedIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { joinPath } from '../../stores/PermissionStore';
import { HOME_PATH } from '../routes';
import { type ConsoleRoute } from '../routeTypes';
import { useStores } from '../useStores';

interface MenuEntryProps {
  route: ConsoleRoute;
  fullPath: string;
  child?: boolean;
}

function MenuLink({ route, fullPath, child }: MenuEntryProps) {
  const { t } = useTranslation();
  const Icon = route.icon;
  const title = route.titleKey ? t(`route.${route.titleKey}`) : fullPath;
  return (
    <li>
      <NavLink
        to={fullPath}
        title={title}
        data-testid={`menu-${fullPath}`}
        className={({ isActive }) =>
          [
            'roost-menu__item',
            child && 'roost-menu__item--child',
            isActive && 'roost-menu__item--active',
          ]
            .filter(Boolean)
            .join(' ')
        }
      >
        {Icon && <Icon size={16} />}
        <span className="roost-menu__label">{title}</span>
      </NavLink>
    </li>
  );
}

function MenuGroup({ route, fullPath }: MenuEntryProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const inside = pathname.startsWith(`${fullPath}/`);
  const [open, setOpen] = useState(true);
  const Icon = route.icon;
  const children = (route.children ?? []).filter((c) => !c.hidden);
  if (children.length === 0) return null;
  const title = route.titleKey ? t(`route.${route.titleKey}`) : fullPath;
  return (
    <li>
      <button
        type="button"
        className={`roost-menu__item${inside ? ' roost-menu__item--group-active' : ''}`}
        aria-expanded={open}
        title={title}
        data-testid={`menu-${fullPath}`}
        onClick={() => setOpen(!open)}
      >
        {Icon && <Icon size={16} />}
        <span className="roost-menu__label">{title}</span>
        <ChevronDownIcon
          size={12}
          className={`roost-menu__caret${open ? ' roost-menu__caret--open' : ''}`}
        />
      </button>
      {open && (
        <ul>
          {children.map((c) => (
            <MenuLink key={c.path} route={c} fullPath={joinPath(fullPath, c.path)} child />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The collapsible menu, built from the routes the user may open. */
export const Sidebar = observer(function Sidebar({ onEscape }: { onEscape: () => void }) {
  const { permission, ui } = useStores();
  const { t } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  // On a phone the menu is a drawer over the page: once opened it takes focus, Escape closes
  // it, and while closed (off-screen) its links take no focus at all.
  const drawer = ui.isMobile;
  const hidden = drawer && !ui.sidebarOpened;
  useEffect(() => {
    if (drawer && ui.sidebarOpened) ref.current?.querySelector<HTMLElement>('a, button')?.focus();
  }, [drawer, ui.sidebarOpened]);
  const routes = permission.routes.filter((r) => !r.hidden);
  return (
    <aside
      className="roost-sidebar"
      data-testid="sidebar"
      aria-label={t('sidebar.label')}
      ref={ref}
      inert={hidden}
      onKeyDown={(event) => {
        if (drawer && event.key === 'Escape') onEscape();
      }}
    >
      {ui.settings.sidebarLogo && (
        <Link to={HOME_PATH} className="roost-sidebar__brand" title={t('app.title')}>
          <span className="roost-sidebar__mark" aria-hidden>
            <FeedIcon size={18} />
          </span>
          <span className="roost-sidebar__title" data-testid="sidebar-title">
            {t('app.title')}
          </span>
        </Link>
      )}
      <nav className="roost-menu-scroll">
        <ul className="roost-menu">
          {routes.map((route) =>
            route.children ? (
              <MenuGroup key={route.path} route={route} fullPath={route.path} />
            ) : (
              <MenuLink key={route.path} route={route} fullPath={route.path} />
            ),
          )}
        </ul>
      </nav>
    </aside>
  );
});
