import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, injectLogged, signInAll, type Method } from './client';
import { makeFixtures, ROLES, snapshot, type Fixtures, type Role } from './matrixFixtures';
import type { Build, Check, Endpoint, Req } from './matrixShared';
import { ENDPOINTS } from './matrixTable';
import { ADMINISTRATION, signInTwins, twinRowsOf } from './matrixOperate';
import { translate } from '../../server/http/messages';

/**
 * Access matrix: for each of the five demo roles and every system and log endpoint, what
 * the role may do inside its scope succeeds, and the same kind of request outside its scope (or
 * above its role) answers 403 or 404 and leaves every table as it was. The rows live in
 * matrixTable.ts; this file only runs them.
 */

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);

async function send(t: TestApp, token: string | null, method: Method, req: Req, locale = 'en') {
  if (token === null) {
    // Nobody signed in: no authorization header at all.
    const res = await t.app.inject({ method, url: `/api${req.url}`, headers: { locale } });
    return { status: res.statusCode, data: undefined, body: res.body };
  }
  if (!req.upload) {
    const res = await call(t, token, method, req.url, req.body, locale);
    return { status: res.status, data: res.data, body: res.res.body };
  }
  const boundary = '----roostMatrix';
  const res = await injectLogged(t, token, {
    method,
    url: `/api${req.url}`,
    headers: {
      authorization: `Bearer ${token}`,
      locale,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${req.fileName ?? 'l.png'}"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  return { status: res.statusCode, data: undefined, body: res.body };
}

/** Who makes a row's request: a demo role, a kiosk link (live or revoked), or nobody. */
type Who = Role | 'kiosk' | 'revoked kiosk' | 'no token';

/** The rows of the matrix, as test names and what each must do. */
interface Row {
  name: string;
  who: Who;
  endpoint: Endpoint;
  build: Build;
  /** Refused: 403 or 404 for a user, 401/403/404 for a kiosk; or exactly this status. */
  expect: 'ok' | 'refused' | 401;
  check?: Check;
}

function rowsOf(endpoint: Endpoint): Row[] {
  const label = `${endpoint.method} ${endpoint.path}`;
  const rows: Row[] = [];
  const refused = (who: Who, why: string, build: Build, expect: Row['expect'] = 'refused') =>
    rows.push({ name: `${who} ${label}: ${why}`, who, endpoint, build, expect });
  // The request an allowed role (or, on a kiosk-only route, the kiosk) makes.
  const first = endpoint.roles[0] ? endpoint.inside[endpoint.roles[0]] : endpoint.kiosk?.inside;
  if (!first) throw new Error(`${label}: no request inside anybody's scope`);
  for (const role of ROLES) {
    const build = endpoint.inside[role];
    if (!endpoint.roles.includes(role)) {
      // A role the endpoint is not for makes the request an allowed role makes.
      refused(role, 'not its role', first);
      continue;
    }
    if (!build) throw new Error(`${label}: no request inside the scope of ${role}`);
    const check = endpoint.check?.[role];
    rows.push({
      name: `${role} ${label}: inside its scope`,
      who: role,
      endpoint,
      build,
      expect: 'ok',
      check,
    });
    for (const o of endpoint.outside?.[role] ?? []) refused(role, o.why, o.build);
  }
  const { kiosk } = endpoint;
  if (!kiosk) {
    // A kiosk token opens the wall's reads and nothing else.
    refused('kiosk', 'not a kiosk route', first);
    return rows;
  }
  rows.push({
    name: `kiosk ${label}: inside its farm`,
    who: 'kiosk',
    endpoint,
    build: kiosk.inside,
    expect: 'ok',
    check: kiosk.check,
  });
  for (const o of kiosk.outside ?? []) refused('kiosk', o.why, o.build);
  // These routes check the token themselves (they are public to the session hook).
  refused('revoked kiosk', 'its link ended', kiosk.inside, 401);
  refused('no token', 'nobody signed in', kiosk.inside, 401);
  return rows;
}

const MATRIX = ENDPOINTS.flatMap(rowsOf);
const TWIN_ROWS = ENDPOINTS.flatMap(twinRowsOf);

describe('the matrix itself', () => {
  it('tests every scoped manager on every endpoint it may use, inside and outside', () => {
    for (const e of ENDPOINTS)
      for (const role of e.roles) {
        if (role === 'admin') continue;
        // Without an outside row (or a check of what a read hides) a removed scope check
        // would go unnoticed for this role.
        const covered = (e.outside?.[role]?.length ?? 0) > 0 || e.check?.[role] !== undefined;
        // Upgrade files are the administrators' firmware for every organisation's gateways,
        // and the API's description is the same text for everyone: not data of a place, no
        // scope to stay inside.
        const unscoped =
          e.path === '/breed/create' ||
          e.path === '/user/assignable' ||
          e.path === '/upgrade/choices' ||
          e.path === '/openapi.json';
        expect(covered || unscoped, `${role} ${e.method} ${e.path}`).toBe(true);
      }
    expect(MATRIX.length).toBeGreaterThan(150);
  });

  it('tests the kiosk link on every wall read, inside its farm and outside', () => {
    for (const e of ENDPOINTS) {
      const label = `${e.method} ${e.path}`;
      // Only the wall's reads accept a kiosk token (server/wall/routes/index.ts, VIEW); the
      // administrators' list of links is no part of the wall.
      const wallRead =
        e.method === 'GET' && e.path.startsWith('/wall/') && e.path !== '/wall/kiosk/list';
      expect(e.kiosk !== undefined, `${label}: a kiosk entry exactly on the wall's reads`).toBe(
        wallRead,
      );
      if (!e.kiosk) continue;
      // Without an outside row or a check of what the read hides, the link's farm scope could
      // be dropped unnoticed.
      expect((e.kiosk.outside?.length ?? 0) > 0 || e.kiosk.check !== undefined, label).toBe(true);
    }
    expect(ENDPOINTS.filter((e) => e.roles.length === 0).map((e) => e.path)).toEqual([
      '/wall/kiosk/self',
    ]);
    expect(MATRIX.filter((r) => r.who === 'kiosk' && r.expect === 'ok').length).toBe(12);
  });
});

/**
 * Public /api routes (no session: the route checks its caller itself, or has none to check)
 * with no matrix row, and where their access is tested. Routes behind the session are
 * accounted for by tests/harden/routeGuard.test.ts; a public route with a matrix row must say
 * what a kiosk token may do there (the test below).
 */
const PUBLIC_OUTSIDE_MATRIX: Readonly<Record<string, string>> = {
  // What anyone may know before signing in.
  'GET /api/health': 'tests/http/http.test.ts',
  'GET /api/version': 'tests/http/http.test.ts',
  'GET /api/config': 'tests/http/http.test.ts',
  // Signing in.
  'POST /api/getCode': 'tests/auth/auth.test.ts',
  'POST /api/login': 'tests/auth/auth.test.ts',
  // Gateways, with their own tokens and enrolment codes.
  'POST /api/ingest/:networkId': 'tests/ingest/ingest.test.ts',
  'POST /api/edge/enrol': 'tests/edge/enrol.test.ts',
  'GET /api/upgrade/download/:networkId/:token': 'tests/upgrade/commands.test.ts',
  // Signed links in alarm mails and drill calls, and the message providers' receipts.
  'GET /api/notify/ack/:token': 'tests/notify/ack.test.ts',
  'POST /api/notify/ack': 'tests/notify/ack.test.ts',
  'POST /api/notify/receipt/twilio': 'tests/notify/receipts.test.ts',
  'POST /api/notify/receipt/aliyun/:token': 'tests/notify/providerReceipts.test.ts',
  'POST /api/notify/receipt/aliyun-voice/:token': 'tests/notify/providerReceipts.test.ts',
  'POST /api/notify/receipt/tencent/:token': 'tests/notify/providerReceipts.test.ts',
};

describe.each(testDatabaseTargets())('role × endpoint matrix on $name', (target) => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof signInAll>>;
  let f: Fixtures;
  let twins: Record<Role, string>;

  beforeAll(async () => {
    // The relayed cameras' media gateway is on this machine: loopback is allowed explicitly.
    t = await createTestApp(target, { ROOST_MEDIA_ALLOW: '127.0.0.1' });
    tokens = await signInAll(t);
    twins = await signInTwins(t, ROLES);
    f = await makeFixtures(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const tokenOf = (who: Who): string | null =>
    who === 'kiosk'
      ? f.kiosk.live
      : who === 'revoked kiosk'
        ? f.kiosk.revoked
        : who === 'no token'
          ? null
          : tokens[who];

  it.each(MATRIX)('$name', async (row) => {
    const method = row.endpoint.method;
    const req = await row.build(f);
    const before = await snapshot(t);
    const res = await send(t, tokenOf(row.who), method, req);
    const after = await snapshot(t);
    if (row.expect !== 'ok') {
      // A user is refused what it may not see; a kiosk token is not even a user (401).
      const allowed =
        row.expect === 401 ? [401] : row.who === 'kiosk' ? [401, 403, 404] : [403, 404];
      expect(allowed, `${method} ${req.url} → ${res.status} ${res.body}`).toContain(res.status);
      expect(after, 'a refused request changes nothing').toEqual(before);
      return;
    }
    expect(res.status, `${method} ${req.url}: ${res.body}`).toBe(200);
    await row.check?.(res.data, res.body, f);
    if (method === 'GET') {
      expect(after, 'a read changes nothing').toEqual(before);
      return;
    }
    const { operation_logs: _logBefore, ...changedBefore } = before;
    const { operation_logs: _logAfter, ...changedAfter } = after;
    expect(changedAfter, 'an accepted change changes something').not.toEqual(changedBefore);
  });

  it('has a row for every public /api route, with the kiosk column, or names where it is tested', () => {
    const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
    const rows = new Map(ENDPOINTS.map((e) => [`${e.method} /api${e.path}`, e]));
    const publicRoutes = t.app.registeredRoutes
      .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && r.public)
      .map(key);
    const unaccounted = publicRoutes.filter((k) => !rows.has(k) && !(k in PUBLIC_OUTSIDE_MATRIX));
    expect(unaccounted, 'add a row to the matrix (tests/admin/matrix*.ts)').toEqual([]);
    const stale = Object.keys(PUBLIC_OUTSIDE_MATRIX).filter(
      (k) => !publicRoutes.includes(k) || rows.has(k),
    );
    expect(stale, 'no longer public, or has a row now').toEqual([]);
    // A public route in the matrix checks its caller itself: the kiosk column says what a kiosk
    // token may do there (the session hook refuses one everywhere else).
    const withoutKiosk = publicRoutes.filter((k) => rows.has(k) && !rows.get(k)!.kiosk);
    expect(withoutKiosk).toEqual([]);
  });

  /** Whether a matrix endpoint's route is marked OPERATING (server/auth/operate.ts). */
  const operating = (method: string, path: string) =>
    t.app.registeredRoutes.some(
      (r) => r.operating && r.method === method && r.url === `/api${path}`,
    );

  it('classifies every changing route as operating or administration, never both', () => {
    const changing = t.app.registeredRoutes.filter(
      (r) => r.url.startsWith('/api/') && !['GET', 'HEAD'].includes(r.method) && !r.public,
    );
    const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
    const unclassified = changing.filter((r) => r.operating === ADMINISTRATION.has(key(r)));
    expect(unclassified.map(key), 'mark it OPERATING or list it in ADMINISTRATION').toEqual([]);
    // These two were once open to a company manager without the permission.
    expect(operating('PUT', '/gateway/rotateToken') && operating('PUT', '/flock/close')).toBe(true);
  });

  it('refuses every operating route to a user without the permission, before reading its input', async () => {
    const routes = t.app.registeredRoutes.filter((r) => r.operating);
    expect(routes.length).toBeGreaterThan(40);
    const before = await snapshot(t);
    for (const route of routes)
      for (const locale of ['en', 'zh'] as const) {
        const res = await call(
          t,
          twins.admin,
          route.method as Method,
          route.url.slice(4),
          {},
          locale,
        );
        expect(res.status, `${route.method} ${route.url}`).toBe(403);
        expect(res.msg).toBe(translate('auth.noOperate', locale));
      }
    expect(await snapshot(t)).toEqual(before);
  });

  it.each(TWIN_ROWS)('$name', async (row) => {
    const method = row.endpoint.method;
    const req = await row.build(f);
    const before = await snapshot(t);
    const res = await send(t, twins[row.role], method, req, row.locale);
    // What the test holds to be administration, not what the server marks: an operating route
    // left unmarked fails here with the request that got through.
    if (ADMINISTRATION.has(`${method} /api${row.endpoint.path.split(' ')[0]}`)) {
      // Administration is the role's: the permission does not lock anyone out of it.
      expect(res.status, `${method} ${req.url}: ${res.body}`).toBe(200);
      return;
    }
    expect(res.status, `${method} ${req.url}: ${res.body}`).toBe(403);
    expect(JSON.parse(res.body).msg).toBe(translate('auth.noOperate', row.locale));
    expect(await snapshot(t), 'a refused request changes nothing').toEqual(before);
  });
});
