import { ApiClient, type ApiText } from '../../api/client';
import { type Locale } from '../../contract/envelope';

/**
 * What a kiosk wall may ask the server, by the paths the console's code uses. The console's
 * live connection and the wall store read /overview/listOverview/, /overview/alarmAmt/ and
 * /alarm/today, which answer signed-in users only; the wall routes answer the same shapes for a
 * kiosk token. Anything else is not sent at all: a kiosk has no business there.
 */
const KIOSK_PATHS: ReadonlyArray<[RegExp, string | null]> = [
  [/^\/api\/overview\/listOverview\/$/, '/api/wall/houses'],
  [/^\/api\/overview\/alarmAmt\/$/, '/api/wall/alarmAmt'],
  [/^\/api\/alarm\/today$/, '/api/wall/today'],
  [
    /^\/api\/wall\/(map|alarms|production|ranking|night|kiosk\/self|province\/\d+|farm\/\d+(?:\/curves)?)$/,
    null,
  ],
];

/** The request's address on the kiosk's allow-list, or null. */
export function kioskUrl(input: string): string | null {
  const url = new URL(input, 'http://wall.invalid');
  for (const [pattern, target] of KIOSK_PATHS)
    if (pattern.test(url.pathname)) return `${target ?? url.pathname}${url.search}`;
  return null;
}

export interface KioskApiHost {
  token: string;
  locale(): Locale;
  text(key: ApiText): string;
  /** The server refused the token (revoked or unknown): the wall stops. */
  ended(): void;
}

/** The API client of a kiosk wall: its token, no toasts (nobody is there to read them). */
export function createKioskApi(host: KioskApiHost): ApiClient {
  const kioskFetch: typeof fetch = (input, init) => {
    const url = kioskUrl(typeof input === 'string' ? input : String(input));
    if (url === null) return Promise.reject(new TypeError('not on the kiosk wall'));
    return fetch(url, init);
  };
  return new ApiClient({
    token: () => host.token,
    locale: () => host.locale(),
    text: (key) => host.text(key),
    showError: () => undefined,
    onLoginPage: () => false,
    signedOut: () => host.ended(),
    requestStarted: () => undefined,
    requestEnded: () => undefined,
    fetch: kioskFetch,
  });
}
