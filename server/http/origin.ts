/**
 * True when a browser's `Origin` names the host it sent the request to. `null` (sandboxed
 * frames, file://) and garbage are cross-site. No Origin at all is not a browser's cross-site
 * request (gateways, scripts), and is left to authentication.
 */
export function isSameSite(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const originHost = new URL(origin).host;
    return originHost !== '' && originHost === host;
  } catch {
    return false;
  }
}
