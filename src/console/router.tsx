import { createBrowserRouter, redirect, type RouteObject } from 'react-router-dom';
import { KIOSK_SCREEN_PATH } from '../contract/wallKiosk';
import { type GuardContext, guardNavigation } from './guard';
import { lazyPage } from './lazyPage';
import { RedirectPage } from './pages/RedirectPage';
import { resolveRoutes } from './routeLookup';
import { CONSOLE_ROUTES, LOGIN_PATH, NOT_FOUND_PATH, ROOT_REDIRECT, SCREEN_ROUTE } from './routes';
import { type ConsoleRoute, type LazyPage } from './routeTypes';
import { RootShell, RootFallback, RouteError } from './RootShell';
import { type RouteHandle } from './routeHandle';

const LoginPage = lazyPage(
  () => import('./login/LoginPage'),
  (m) => m.LoginPage,
);
/** A kiosk link's wall: no session, so outside the guarded root. */
const KioskWallPage = lazyPage(
  () => import('../screens/wall/KioskWallPage'),
  (m) => m.KioskWallPage,
);
/** A signed acknowledge link's page: no session either. */
const AckPage = lazyPage(
  () => import('./notify/AckPage'),
  (m) => m.AckPage,
);
const ConsoleLayout = lazyPage(
  () => import('./layout/Layout'),
  (m) => m.Layout,
);

/** Fetches a page's code while the router navigates, so the progress bar covers it. */
const preload = (page: LazyPage) => async () => {
  await page.preload();
  return null;
};

function pageRoute(route: ConsoleRoute, fullPath: string, context: GuardContext): RouteObject {
  const handle: RouteHandle = { route, fullPath };
  if (!route.children) {
    return {
      path: fullPath,
      Component: route.component,
      loader: route.component && preload(route.component),
      handle,
    };
  }
  return {
    path: fullPath,
    handle,
    children: [
      {
        // A group's own address opens its first child the user may open.
        index: true,
        loader: () => {
          const first = resolveRoutes(route.children ?? []).find(({ route: child }) =>
            context.stores.permission.allowedPaths.has(`${fullPath}/${child.path}`),
          );
          return redirect(first ? `${fullPath}/${first.route.path}` : NOT_FOUND_PATH);
        },
      },
      ...(route.children ?? []).map((child) =>
        pageRoute(child, `${fullPath}/${child.path}`, context),
      ),
    ],
  };
}

/** The router: one tree built from the route table, guarded by its root loader. */
export function createConsoleRouter(context: GuardContext) {
  const routes: RouteObject[] = [
    { path: KIOSK_SCREEN_PATH, Component: KioskWallPage, loader: preload(KioskWallPage) },
    { path: '/ack/:token', Component: AckPage, loader: preload(AckPage) },
    {
      id: 'root',
      path: '/',
      Component: RootShell,
      HydrateFallback: RootFallback,
      ErrorBoundary: RouteError,
      loader: async ({ request }) => {
        const target = await guardNavigation(context, new URL(request.url));
        if (target) throw redirect(target);
        return null;
      },
      // The guard runs on every navigation, not only when the root's params change.
      shouldRevalidate: () => true,
      children: [
        {
          path: LOGIN_PATH,
          Component: LoginPage,
          loader: preload(LoginPage),
          handle: {
            route: { path: LOGIN_PATH, titleKey: 'login', hidden: true, noTab: true },
            fullPath: LOGIN_PATH,
          },
        },
        pageRoute(SCREEN_ROUTE, SCREEN_ROUTE.path, context),
        {
          Component: ConsoleLayout,
          loader: preload(ConsoleLayout),
          children: [
            { index: true, loader: () => redirect(ROOT_REDIRECT) },
            ...CONSOLE_ROUTES.map((route) => pageRoute(route, route.path, context)),
            {
              path: '/redirect/*',
              Component: RedirectPage,
              handle: {
                route: {
                  path: '/redirect',
                  titleKey: 'redirect',
                  hidden: true,
                  noTab: true,
                  noCache: true,
                },
                fullPath: '/redirect',
              },
            },
            { path: '*', loader: () => redirect(NOT_FOUND_PATH) },
          ],
        },
      ],
    },
  ];
  return createBrowserRouter(routes);
}
