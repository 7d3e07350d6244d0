import { observer } from 'mobx-react-lite';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useMatches } from 'react-router-dom';
import { ChangePasswordDialog } from '../password/ChangePasswordDialog';
import { ProgressBar } from '../ProgressBar';
import { type RouteHandle } from '../routeHandle';
import { resolveRoutes } from '../routeLookup';
import { useStores } from '../useStores';
import { KeptPages } from './KeptPages';
import { Navbar } from './Navbar';
import { SettingsPanel } from './SettingsPanel';
import { Sidebar } from './Sidebar';
import { TabStrip } from './TabStrip';

function bodyWidth(): number {
  return document.body.getBoundingClientRect().width;
}

/** Device and sidebar follow the window. */
function useResponsiveSidebar(): void {
  const { ui } = useStores();
  const { pathname } = useLocation();
  useEffect(() => {
    const handleResize = () => ui.evaluateDevice(bodyWidth(), document.hidden);
    window.addEventListener('resize', handleResize);
    return () => window.removeEventListener('resize', handleResize);
  }, [ui]);
  useEffect(() => {
    ui.handleNavigation();
  }, [pathname, ui]);
}

/**
 * Every visited table route becomes a tab, those kept out of the menu too (AI6000), unless
 * flagged noTab; affixed ones are there from the start.
 */
function useVisitedTabs(): void {
  const { tabs, permission } = useStores();
  const location = useLocation();
  const matches = useMatches();
  useEffect(() => {
    const affixed = resolveRoutes(permission.routes).filter(
      ({ route }) => route.affix && route.titleKey,
    );
    tabs.initAffixViews(
      affixed.map(({ route, fullPath }) => ({
        path: fullPath,
        fullPath,
        titleKey: route.titleKey ?? '',
        affix: true,
        noCache: route.noCache === true,
      })),
    );
  }, [tabs, permission.routes]);
  const handle = matches.at(-1)?.handle as RouteHandle | undefined;
  useEffect(() => {
    const route = handle?.route;
    if (!handle || !route?.titleKey || route.noTab) return;
    tabs.addView({
      path: handle.fullPath,
      fullPath: `${location.pathname}${location.search}`,
      titleKey: route.titleKey,
      affix: route.affix === true,
      noCache: route.noCache === true,
    });
  }, [handle, location.pathname, location.search, tabs]);
}

/** The console's frame: sidebar, top bar, tab strip and the page. */
export const Layout = observer(function Layout() {
  const stores = useStores();
  const { ui } = stores;
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const { t } = useTranslation();
  const mainRef = useRef<HTMLElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const userButtonRef = useRef<HTMLButtonElement>(null);
  const closeDrawer = () => {
    ui.closeSidebar();
    menuButtonRef.current?.focus();
  };
  useResponsiveSidebar();
  useVisitedTabs();
  useEffect(() => {
    void stores.session.loadLogo();
  }, [stores]);

  const classes = [
    'roost-app',
    !ui.sidebarOpened && 'roost-app--collapsed',
    ui.isMobile && 'roost-app--mobile',
    !ui.settings.tabsView && 'roost-app--no-tabs',
  ];
  return (
    <div
      className={classes.filter(Boolean).join(' ')}
      data-testid="layout"
      data-device={ui.device}
      data-sidebar={ui.sidebarOpened ? 'open' : 'closed'}
      data-size={ui.size}
      // The live connection's state (connecting, live, polling, offline) on every page, not
      // only those with the indicator: browser tests wait on it instead of on the clock.
      data-live={stores.live.state}
    >
      <a
        className="roost-skip-link"
        href="#content"
        onClick={(event) => {
          event.preventDefault();
          mainRef.current?.focus();
        }}
      >
        {t('app.skipToContent')}
      </a>
      <Sidebar onEscape={closeDrawer} />
      {ui.isMobile && ui.sidebarOpened && (
        <div className="roost-drawer-backdrop" onClick={() => ui.closeSidebar()} />
      )}
      <div className="roost-main">
        <header
          className={ui.settings.fixedHeader ? 'roost-header' : 'roost-header roost-header--static'}
          data-testid="header"
        >
          <Navbar
            onChangePassword={() => setPasswordOpen(true)}
            onSettings={() => setSettingsOpen(true)}
            menuButtonRef={menuButtonRef}
            userButtonRef={userButtonRef}
          />
          {ui.settings.tabsView && <TabStrip />}
        </header>
        <main className="roost-content" id="content" ref={mainRef} tabIndex={-1}>
          <Suspense fallback={<ProgressBar active />}>
            <KeptPages />
          </Suspense>
        </main>
      </div>
      <ChangePasswordDialog
        isOpen={passwordOpen}
        onClose={() => setPasswordOpen(false)}
        // Focus goes back to the account button: the menu item the dialog was opened from is
        // gone by the time it closes, and focus would fall to the page's body.
        onClosed={() => userButtonRef.current?.focus()}
      />
      <SettingsPanel isOpen={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </div>
  );
});
