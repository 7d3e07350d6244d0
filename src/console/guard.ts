import { type TFunction } from 'i18next';
import { isApiError } from '../api/errors';
import { SessionError } from '../stores/SessionStore';
import { findRoute, normalisePath } from './routeLookup';
import { HOME_PATH, LOGIN_PATH, NOT_FOUND_PATH } from './routes';
import { type ConsoleStores } from './useStores';

export interface GuardContext {
  stores: ConsoleStores;
  t: TFunction;
  showError(message: string): void;
}

/** `/login?redirect=<path>`: where a signed-out visitor is sent. */
export function loginPathFor(fullPath: string): string {
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(fullPath)}`;
}

/** A `redirect` query is only followed within the console. */
export function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
    ? value
    : HOME_PATH;
}

/**
 * The server was not reached, did not answer in time or failed itself: nothing says the session
 * is over. A reload that is interrupted (a second navigation aborts the first one's request) or
 * a server restart must not sign the user out.
 */
function sessionMayStillHold(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.kind === 'network' || error.kind === 'timeout') return true;
  return error.kind === 'http' && error.status !== null && error.status >= 500;
}

/** What the user is told when the current user cannot be loaded. */
function failureMessage(error: unknown, t: TFunction): string | null {
  if (isApiError(error)) {
    if (error.shown) return null;
    // A refused token: the product's own words for it, not the server's "session has ended".
    if (error.kind === 'unauthorized') return t('login.verificationFailed');
    return error.message || t('login.verificationFailed');
  }
  if (error instanceof SessionError) return t(error.reason);
  return t('login.verificationFailed');
}

/**
 * The navigation guard. Returns where to go instead, or null to go on.
 * - with both credential cookies: /login → `/`; an unknown role loads the user and generates
 *   the routes first (a refused or unusable answer ends the session, says why and goes to `/`;
 *   an unreachable or failing server keeps it and shows the route error page, whose Reload
 *   tries again); a route the role may not open → /404;
 * - without them: anything but /login → `/login?redirect=<path>`.
 */
export async function guardNavigation(context: GuardContext, url: URL): Promise<string | null> {
  const { session, permission, config } = context.stores;
  const path = normalisePath(url.pathname);
  if (!session.hasCredentials) {
    return path === LOGIN_PATH ? null : loginPathFor(`${url.pathname}${url.search}`);
  }
  if (path === LOGIN_PATH) return HOME_PATH;

  if (!session.roleKey || !permission.generated) {
    try {
      await Promise.all([
        session.roleKey ? null : session.loadCurrentUser(),
        config.ensureLoaded(),
      ]);
      permission.generate(session.roles, { alarmScreen: config.alarmScreen });
    } catch (error) {
      if (sessionMayStillHold(error)) throw error;
      context.stores.signOutLocally();
      const message = failureMessage(error, context.t);
      if (message) context.showError(message);
      return HOME_PATH;
    }
  }

  const resolved = findRoute(path);
  if (resolved && !permission.allowedPaths.has(resolved.fullPath)) return NOT_FOUND_PATH;
  return null;
}
