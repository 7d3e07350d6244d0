import { type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { guardNavigation, safeRedirect } from '../../src/console/guard';
import { ROUTE_TABLE } from '../../src/console/routes';
import { type ConsoleRoute } from '../../src/console/routeTypes';
import {
  createTestStores,
  currentUser,
  fakeFetch,
  ok,
  refuse,
  SIGNED_IN,
  type Handler,
} from '../stores/fakeApi';

const CONFIG = ok({ edition: 'default', alarmScreen: true, version: '0.1.0', demo: true });
const t = ((key: string) => `t:${key}`) as unknown as TFunction;

function setup(handlers: Record<string, Handler>, cookies: Record<string, string> = SIGNED_IN) {
  const test = createTestStores<ConsoleRoute>(
    { 'GET /config': () => CONFIG, ...handlers },
    { cookies, routes: ROUTE_TABLE },
  );
  const shown: string[] = [];
  const guard = (path: string) =>
    guardNavigation(
      { stores: test.stores, t, showError: (m) => shown.push(m) },
      new URL(path, 'http://roost.test'),
    );
  return { ...test, shown, guard };
}

describe('the navigation guard', () => {
  it('sends a signed-out visitor to /login with the path to come back to', async () => {
    const { guard } = setup({}, {});
    await expect(guard('/system/user?page=2')).resolves.toBe(
      '/login?redirect=%2Fsystem%2Fuser%3Fpage%3D2',
    );
    await expect(guard('/login')).resolves.toBeNull();
    await expect(guard('/404')).resolves.toBe('/login?redirect=%2F404');
  });

  it('sends a signed-in user away from /login to the root', async () => {
    const { guard } = setup({});
    await expect(guard('/login')).resolves.toBe('/');
  });

  it('loads the user once, generates the routes and lets the navigation go on', async () => {
    const { guard, stores, requests } = setup({
      'GET /user/getCurrent': () => ok(currentUser('company_manager')),
    });
    await expect(guard('/system/farm')).resolves.toBeNull();
    await expect(guard('/log/index')).resolves.toBeNull();
    expect(stores.session.roleKey).toBe('company_manager');
    expect(requests.filter((r) => r.path === '/user/getCurrent')).toHaveLength(1);
  });

  it('sends a path the role may not open to /404', async () => {
    const { guard } = setup({ 'GET /user/getCurrent': () => ok(currentUser('farm_manager')) });
    await expect(guard('/system/org')).resolves.toBe('/404');
    await expect(guard('/alarmOverview/index')).resolves.toBe('/404');
    await expect(guard('/system/user')).resolves.toBeNull();
  });

  it('ends the session and says why when the user answer has no role', async () => {
    const { guard, stores, shown, cookies } = setup({
      'GET /user/getCurrent': () => ok(currentUser(undefined)),
    });
    await expect(guard('/log/index')).resolves.toBe('/');
    expect(shown).toEqual(['t:login.roleIncorrect']);
    expect(stores.session.hasCredentials).toBe(false);
    expect(cookies.get('Admin-Token')).toBeUndefined();
  });

  it('ends the session once and says "Verification failed" when the token is no longer valid', async () => {
    const { guard, stores, shown, signedOut, errors } = setup({
      'GET /user/getCurrent': () => refuse(401, 'Your session has ended.'),
    });
    await expect(guard('/log/index')).resolves.toBe('/');
    expect(stores.session.hasCredentials).toBe(false);
    // Not the client's lost-session path (reload with "Login failed"): the guard tells it.
    expect(signedOut).toEqual([]);
    expect([...errors, ...shown]).toEqual(['t:login.verificationFailed']);
  });

  it('ends the session and says why when the server refuses the user for another reason', async () => {
    const { guard, stores, shown, errors } = setup({
      'GET /user/getCurrent': () => refuse(403, 'This account is disabled.'),
    });
    await expect(guard('/log/index')).resolves.toBe('/');
    expect(stores.session.hasCredentials).toBe(false);
    expect([...errors, ...shown]).toEqual(['This account is disabled.']);
  });

  it('keeps the session when the server fails: the error page shows, and the next try goes on', async () => {
    let broken = true;
    const { guard, stores, cookies, errors } = setup({
      'GET /user/getCurrent': () =>
        broken ? refuse(500, 'Server broke.') : ok(currentUser('company_manager')),
    });
    await expect(guard('/log/index')).rejects.toThrow('Server broke.');
    expect(errors).toEqual(['Server broke.']);
    expect(stores.session.hasCredentials).toBe(true);
    expect(cookies.get('Admin-Token')).toBe('token-1');
    broken = false;
    await expect(guard('/log/index')).resolves.toBeNull();
    expect(stores.session.roleKey).toBe('company_manager');
  });

  it('keeps the session when its answer is cut off (a reload interrupted by another navigation)', async () => {
    const { fetch } = fakeFetch({ 'GET /config': () => CONFIG });
    // Chromium aborts a page's requests when it navigates away: the headers came, the body not.
    const unreachable = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!String(input).includes('/user/getCurrent')) return fetch(input, init);
      const body = new ReadableStream({ start: (c) => c.error(new TypeError('ERR_ABORTED')) });
      return new Response(body, { status: 200 });
    }) as typeof globalThis.fetch;
    const test = createTestStores<ConsoleRoute>(
      {},
      {
        cookies: SIGNED_IN,
        routes: ROUTE_TABLE,
        fetch: unreachable,
      },
    );
    const guard = guardNavigation(
      { stores: test.stores, t, showError: () => undefined },
      new URL('/system/poultry', 'http://roost.test'),
    );
    await expect(guard).rejects.toThrow('network down');
    expect(test.stores.session.hasCredentials).toBe(true);
    expect(test.cookies.get('Admin-UserId')).toBe('7');
  });

  it('follows a redirect query only inside the console', () => {
    expect(safeRedirect('/system/user?x=1')).toBe('/system/user?x=1');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
  });
});
