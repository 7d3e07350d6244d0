import { type i18n } from 'i18next';
import { type ApiText } from './api/client';
import { startRealtime } from './realtime';
import { DocumentCookieJar } from './stores/cookies';
import { RootStore } from './stores/RootStore';
import { LOGIN_PATH, ROUTE_TABLE } from './console/routes';
import { keepFlash, showErrorToast } from './console/toaster';
import { type ConsoleStores } from './console/useStores';

const API_TEXTS: Record<ApiText, 'api.network' | 'api.timeout' | 'api.badAnswer' | 'login.failed'> =
  {
    network: 'api.network',
    timeout: 'api.timeout',
    badAnswer: 'api.badAnswer',
    loginFailed: 'login.failed',
  };

/**
 * The browser's wiring point: the console's stores, wired to this page (cookies, toasts,
 * reload), and the live connection that feeds them. Nothing else in the browser starts the
 * connection or hands it to a store.
 */
export function createStores(translations: () => i18n): ConsoleStores {
  let reloading = false;
  const stores = new RootStore(ROUTE_TABLE, {
    cookies: new DocumentCookieJar(document),
    ui: {
      browserLanguages: navigator.languages.length > 0 ? navigator.languages : [navigator.language],
      bodyWidthPx: document.body.getBoundingClientRect().width,
    },
    text: (key) => translations().t(API_TEXTS[key]),
    showError: showErrorToast,
    onLoginPage: () => window.location.pathname === LOGIN_PATH,
    reloadSignedOut: (message) => {
      // Several calls in flight answer 401 together when a session ends; a second reload would
      // abort the first one, so the page reloads once and the later calls change nothing.
      if (reloading) return;
      reloading = true;
      keepFlash(message);
      window.location.reload();
    },
  });
  // The live connection follows the session token for the life of the page; the houses store
  // follows houses through it.
  startRealtime(stores);
  return stores;
}
