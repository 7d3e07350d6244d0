import { vi } from 'vitest';
import { MemoryCookieJar } from '../../src/stores/cookies';
import { RootStore, type RootEnvironment } from '../../src/stores/RootStore';
import { type RouteRule } from '../../src/stores/PermissionStore';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Handler = (
  request: RecordedRequest,
) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;

export const ok = (data: unknown) => ({
  status: 200,
  body: { success: true, code: 200, msg: 'OK', data },
});
export const refuse = (code: number, msg: string) => ({
  status: code,
  body: { success: false, code, msg, data: null },
});

/** A fetch that answers from `handlers` by "METHOD /path" (without /api), recording every request. */
export function fakeFetch(handlers: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://roost.test');
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api/, ''),
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    requests.push(request);
    const handler = handlers[`${request.method} ${request.path}`];
    const answer = handler
      ? await handler(request)
      : refuse(404, 'There is nothing at this address.');
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, requests };
}

export const TEXTS = {
  network: 'network down',
  timeout: 'too slow',
  badAnswer: 'bad answer',
  loginFailed: 'Login failed, please try again',
} as const;

export interface TestStores<R extends RouteRule> {
  stores: RootStore<R>;
  cookies: MemoryCookieJar;
  errors: string[];
  signedOut: string[];
  requests: RecordedRequest[];
  setOnLogin(value: boolean): void;
}

/** A RootStore on a fake server, with the toasts and reloads it asked for recorded. */
export function createTestStores<R extends RouteRule>(
  handlers: Record<string, Handler>,
  options: {
    cookies?: Record<string, string>;
    routes?: readonly R[];
    width?: number;
    languages?: string[];
    fetch?: typeof globalThis.fetch;
  } = {},
): TestStores<R> {
  const { fetch, requests } = fakeFetch(handlers);
  const cookies = new MemoryCookieJar(options.cookies);
  const errors: string[] = [];
  const signedOut: string[] = [];
  let onLogin = false;
  const environment: RootEnvironment = {
    cookies,
    ui: { browserLanguages: options.languages ?? ['en-US'], bodyWidthPx: options.width ?? 1280 },
    text: (key) => TEXTS[key],
    showError: (message) => errors.push(message),
    onLoginPage: () => onLogin,
    reloadSignedOut: (message) => signedOut.push(message),
    fetch: options.fetch ?? fetch,
  };
  const stores = new RootStore<R>(options.routes ?? [], environment);
  return { stores, cookies, errors, signedOut, requests, setOnLogin: (value) => (onLogin = value) };
}

export const SIGNED_IN = { 'Admin-Token': 'token-1', 'Admin-UserId': '7' };

export function currentUser(roleKey: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    userId: 7,
    username: 'admin',
    name: 'Demo Administrator',
    avatar: '',
    ...(roleKey === undefined ? {} : { roleKey }),
    canOperate: '1',
    remoteConfigFlag: '0',
    mapType: '1',
    orgName: 'Demo Org',
    ...extra,
  };
}
