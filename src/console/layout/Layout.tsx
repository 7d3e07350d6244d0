import { observer } from 'mobx-react-lite';
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import { ChangePasswordDialog } from '../password/ChangePasswordDialog';
import { ProgressBar } from '../ProgressBar';
import { type RouteHandle } from '../routeHandle';
import { resolveRoutes } from '../routeLookup';
import { useStores } from '../useStores';
import { Navbar } from './Navbar';
import { SettingsPanel } from './SettingsPanel';
import { Sidebar } from './Sidebar';
import { TabStrip } from './TabStrip';

function bodyWidth(): number {
  return document.body.getBoundingClientRect().width;
}

/** Device and sidebar follow the window (spec §4). */
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

/** Every visited table route becomes a tab; affixed ones are there from the start. */
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
    if (!handle || !route?.titleKey || route.hidden) return;
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
      <Sidebar />
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
          />
          {ui.settings.tabsView && <TabStrip />}
        </header>
        <main className="roost-content">
          <Suspense fallback={<ProgressBar active />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      <ChangePasswordDialog isOpen={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <SettingsPanel isOpen={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </div>
  );
});
