import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchAlarmAmount, fetchOrgLogo } from '../../src/api/endpoints';
import { REQUEST_TIMEOUT_MS } from '../../src/api/client';
import { createTestStores, ok, refuse, SIGNED_IN, TEXTS } from './fakeApi';

describe('the API client', () => {
  afterEach(() => vi.useRealTimers());

  it('sends the token, the language and the source with every request, under /api', async () => {
    const t = createTestStores(
      {
        'GET /config': () =>
          ok({ edition: 'default', alarmScreen: true, version: '1', demo: true }),
      },
      { cookies: { ...SIGNED_IN, language: 'zh' } },
    );
    await t.stores.config.ensureLoaded();
    expect(t.requests).toHaveLength(1);
    expect(t.requests[0]?.path).toBe('/config');
    expect(t.requests[0]?.headers).toMatchObject({
      Authorization: 'Bearer token-1',
      Locale: 'zh',
      Source: 'computer',
    });
  });

  it('sends the language chosen last', async () => {
    const t = createTestStores({
      'GET /config': () => ok({ edition: 'default', alarmScreen: true, version: '1', demo: true }),
    });
    t.stores.ui.setLanguage('zh');
    await t.stores.api.get('/config');
    t.stores.ui.setLanguage('en');
    await t.stores.api.get('/config');
    expect(t.requests.map((r) => r.headers['Locale'])).toEqual(['zh', 'en']);
  });

  it('shows the server message of a refusal as an error toast and rejects', async () => {
    const t = createTestStores(
      { 'PUT /thing': () => refuse(409, 'Name existed') },
      { cookies: SIGNED_IN },
    );
    await expect(t.stores.api.put('/thing', { body: {} })).rejects.toMatchObject({
      message: 'Name existed',
      status: 409,
      shown: true,
    });
    expect(t.errors).toEqual(['Name existed']);
  });

  it('treats an answer whose body code is not 200 as an error even with HTTP 200', async () => {
    const t = createTestStores({
      'GET /odd': () => ({
        status: 200,
        body: { success: false, code: 500, msg: 'Broken', data: null },
      }),
    });
    await expect(t.stores.api.get('/odd')).rejects.toMatchObject({ message: 'Broken' });
    expect(t.errors).toEqual(['Broken']);
  });

  it('says nothing of calls that fail after their session ended (signed out while they were on their way)', async () => {
    let answer!: () => void;
    const t = createTestStores(
      {
        'GET /slow': () =>
          new Promise(
            (resolve) => (answer = () => resolve(refuse(401, 'Your session has ended.'))),
          ),
        'POST /logout': () => ok(null),
      },
      { cookies: SIGNED_IN },
    );
    const pending = t.stores.api.get('/slow');
    await vi.waitFor(() => expect(answer).toBeTypeOf('function'));
    await t.stores.logout();
    t.setOnLogin(true);
    answer();
    await expect(pending).rejects.toMatchObject({ kind: 'unauthorized', shown: true });
    expect(t.errors).toEqual([]);
    expect(t.signedOut).toEqual([]);
  });

  it('signs the user out on an HTTP 401 outside /login, with the login-failed text', async () => {
    const t = createTestStores(
      { 'GET /user/getCurrent': () => refuse(401, 'Your session has ended.') },
      { cookies: SIGNED_IN },
    );
    await expect(t.stores.api.get('/user/getCurrent')).rejects.toMatchObject({
      kind: 'unauthorized',
      shown: true,
    });
    expect(t.signedOut).toEqual([TEXTS.loginFailed]);
    expect(t.stores.session.hasCredentials).toBe(false);
    expect(t.cookies.values.size).toBe(0);
  });

  it('signs the user out on a body code 401 carried by HTTP 200', async () => {
    const t = createTestStores(
      {
        'GET /list': () => ({
          status: 200,
          body: { success: false, code: 401, msg: 'no', data: null },
        }),
      },
      { cookies: SIGNED_IN },
    );
    await expect(t.stores.api.get('/list')).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(t.signedOut).toEqual([TEXTS.loginFailed]);
    expect(t.stores.session.token).toBeUndefined();
  });

  it('on /login, a 401 is a failed sign-in: the server message is shown and nobody is signed out', async () => {
    const t = createTestStores({
      'POST /login': () => refuse(401, 'Wrong user name or password.'),
    });
    t.setOnLogin(true);
    await expect(
      t.stores.session.login({ username: ' admin ', password: 'wrong1', codeId: 'c', code: '1' }),
    ).rejects.toMatchObject({
      message: 'Wrong user name or password.',
    });
    expect(t.errors).toEqual(['Wrong user name or password.']);
    expect(t.signedOut).toEqual([]);
    expect(t.requests[0]?.body).toMatchObject({ username: 'admin' });
  });

  it('gives up after 10 seconds with the timeout text', async () => {
    vi.useFakeTimers();
    const hanging = vi.fn(
      (_: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
        }),
    );
    const t = createTestStores({}, { fetch: hanging as unknown as typeof fetch });
    const outcome = expect(t.stores.api.get('/slow')).rejects.toMatchObject({
      kind: 'timeout',
      message: TEXTS.timeout,
    });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(t.errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(t.errors).toEqual([TEXTS.timeout]);
  });

  it('tells a network failure', async () => {
    const failing = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    const t = createTestStores({}, { fetch: failing as unknown as typeof fetch });
    await expect(t.stores.api.get('/x')).rejects.toMatchObject({ kind: 'network' });
    expect(t.errors).toEqual([TEXTS.network]);
  });

  it('tells a network failure when the answer is cut off after its headers, not a bad answer', async () => {
    // What Chromium does to a page's requests when it navigates away: headers in, body aborted.
    const cut = vi.fn(() =>
      Promise.resolve(
        new Response(
          new ReadableStream({ start: (c) => c.error(new TypeError('net::ERR_ABORTED')) }),
          { status: 200, headers: { 'Content-Type': 'application/json' } },
        ),
      ),
    );
    const t = createTestStores({}, { fetch: cut as unknown as typeof fetch });
    await expect(t.stores.api.get('/x')).rejects.toMatchObject({ kind: 'network' });
    expect(t.errors).toEqual([TEXTS.network]);
  });

  it('gives up after 10 seconds on a body that stops coming, too', async () => {
    vi.useFakeTimers();
    const stalled = vi.fn((_: RequestInfo | URL, init?: RequestInit) =>
      Promise.resolve(
        new Response(
          new ReadableStream({
            start: (c) => {
              c.enqueue(new TextEncoder().encode('{"success":tr'));
              init?.signal?.addEventListener('abort', () =>
                c.error(new DOMException('aborted', 'AbortError')),
              );
            },
          }),
          { status: 200 },
        ),
      ),
    );
    const t = createTestStores({}, { fetch: stalled as unknown as typeof fetch });
    const outcome = expect(t.stores.api.get('/slow')).rejects.toMatchObject({ kind: 'timeout' });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    await outcome;
    expect(t.errors).toEqual([TEXTS.timeout]);
  });

  it('counts requests in flight for the progress bar', async () => {
    let release: () => void = () => undefined;
    const t = createTestStores({
      'GET /wait': () => new Promise((resolve) => (release = () => resolve(ok(1)))),
    });
    const pending = t.stores.api.get('/wait');
    await vi.waitFor(() => expect(t.requests).toHaveLength(1));
    expect(t.stores.ui.busy).toBe(true);
    release();
    await pending;
    expect(t.stores.ui.busy).toBe(false);
  });

  it('leaves a background refresh out of the progress bar', async () => {
    let release: () => void = () => undefined;
    const t = createTestStores({
      'GET /wait': () => new Promise((resolve) => (release = () => resolve(ok(1)))),
    });
    const pending = t.stores.api.get('/wait', { background: true });
    await vi.waitFor(() => expect(t.requests).toHaveLength(1));
    expect(t.stores.ui.busy).toBe(false);
    release();
    await expect(pending).resolves.toBe(1);
  });

  it('reads a missing alarm count or logo endpoint (404) as none, silently', async () => {
    const t = createTestStores({}, { cookies: SIGNED_IN });
    await expect(fetchAlarmAmount(t.stores.api)).resolves.toBe(0);
    await expect(fetchOrgLogo(t.stores.api)).resolves.toBe('');
    expect(t.errors).toEqual([]);
  });

  it('reads the alarm count when the server has it', async () => {
    const t = createTestStores({ 'GET /overview/alarmAmt/': () => ok(3) }, { cookies: SIGNED_IN });
    await expect(fetchAlarmAmount(t.stores.api)).resolves.toBe(3);
  });
});
