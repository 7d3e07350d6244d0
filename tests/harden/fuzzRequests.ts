import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Database } from '../../server/db/client';

/** The demo's users, one per role: the fuzz signs in as each. */
export const FUZZ_USERS = ['admin', 'company', 'area', 'farm', 'shack'] as const;

/**
 * Routes the fuzz leaves alone: signing out or changing a password would end the sessions
 * the rest of the run uses, and the ingest door is hammered by the MQTT and ingest tests.
 */
const SKIPPED = /\/(logout|user\/updatePwd|user\/resetPwd)$/;

/** Field names the routes read, so generated input reaches the schemas' real checks. */
const KEYS = [
  'id',
  'farmId',
  'houseId',
  'gatewayId',
  'breedId',
  'alarmId',
  'shackId',
  'parentId',
  'scopeNodeId',
  'page',
  'size',
  'from',
  'to',
  'date',
  'name',
  'code',
  'phone',
  'username',
  'password',
  'newPassword',
  'oldPassword',
  'roleKey',
  'shackIds',
  'farmIds',
  'houseIds',
  'limits',
  'networkId',
  'comment',
  'ageDay',
  'headCount',
  'typeKey',
  'sort',
  'level',
  'type',
  'metric',
  'metrics',
  'keyword',
  'status',
  'noticeTypes',
  'period1Start',
  'ts',
  'closedOn',
  'placedOn',
  'longitude',
  'latitude',
  'targets',
  'immune',
  'remark',
  'description',
  'diCode',
];

const NUL = 'x\u0000y';

/** Values that broke real servers: bounds, control characters, wrong types, huge and odd text. */
const hostile = fc.oneof(
  fc.constantFrom<unknown>(
    2147483648,
    2147483647,
    -1,
    0,
    -0,
    1e308,
    Number.MAX_SAFE_INTEGER,
    4294967296,
    0.5,
    '9'.repeat(40),
    '2147483648',
    '-1',
    '1e400',
    'NaN',
    'Infinity',
    NUL,
    '\u0000',
    '%00',
    '\u0007bell',
    '\ud800',
    '<script>alert(1)</script>',
    'o\'hara"; drop table users;--',
    '',
    ' ',
    'x'.repeat(5_000),
    null,
    true,
    false,
    [],
    {},
    [null],
    ['1', 2],
    { $gt: '' },
    '2026-13-45',
    '25:99',
    '../../etc/passwd',
    '__proto__',
    'constructor',
  ),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.integer({ min: -5, max: 3_000_000_000 }), { maxLength: 4 }),
);
/** Values that look right, so some requests get past validation into the handlers. */
const plausible = fc.oneof(
  fc.integer({ min: 1, max: 80 }),
  fc.constantFrom<unknown>(
    'admin',
    'House 1',
    '13800000000',
    '08:00',
    '18:00',
    '2026-01-01',
    'farm_manager',
    'shack_manager',
    'daily',
    'open',
    'message',
    ['block'],
    [1, 2],
    {},
    'Roost12345',
  ),
);
const value = fc.oneof(hostile, plausible);
const fields = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 6 });

export interface FuzzRoute {
  method: string;
  url: string;
}

export interface FuzzRequest {
  route: FuzzRoute;
  role: number;
  query: Record<string, unknown>;
  body: unknown;
  param: unknown;
  rawBody: string | null;
  locale: 'en' | 'zh';
}

/** A generator of requests to the given routes; `poisoned` puts a NUL somewhere in each. */
export function fuzzRequests(routes: readonly FuzzRoute[], poisoned: boolean) {
  return fc
    .record({
      route: fc.constantFrom(...routes),
      role: fc.integer({ min: 0, max: FUZZ_USERS.length - 1 }),
      query: fields,
      body: fc.oneof({ weight: 5, arbitrary: fields }, { weight: 1, arbitrary: fc.jsonValue() }),
      param: value,
      rawBody: fc.oneof(
        { weight: 9, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom('{"id":', '[]', 'null', '{"a":1}}', '\u0000') },
      ),
      locale: fc.constantFrom('en' as const, 'zh' as const),
      poisonKey: fc.constantFrom(...KEYS),
    })
    .map(({ poisonKey, ...r }): FuzzRequest => {
      if (!poisoned) return r;
      const bodyless = r.route.method === 'GET' || r.route.method === 'DELETE';
      const body =
        typeof r.body === 'object' && r.body !== null && !Array.isArray(r.body) ? r.body : {};
      return bodyless || r.rawBody !== null
        ? {
            ...r,
            query: { ...r.query, [poisonKey]: NUL },
            rawBody: null,
            body: { ...body, [poisonKey]: NUL },
          }
        : { ...r, body: { ...body, [poisonKey]: NUL }, query: { ...r.query, [poisonKey]: NUL } };
    });
}

/** Every /api route the app registered, except the few the fuzz must not call. */
export function fuzzableRoutes(app: FastifyInstance): FuzzRoute[] {
  return app.registeredRoutes
    .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && !SKIPPED.test(r.url))
    .map((r) => ({ method: r.method, url: r.url }));
}

/** A lone surrogate cannot be encoded: it goes as the bytes of invalid UTF-8 instead. */
function pathSegment(value: unknown): string {
  try {
    return encodeURIComponent(String(value));
  } catch {
    return '%ED%A0%80';
  }
}

export function toInject(r: FuzzRequest, tokens: readonly string[]): InjectOptions {
  const path = r.route.url.replace(/:[A-Za-z]+/g, () => pathSegment(r.param));
  const search = new URLSearchParams();
  for (const [key, v] of Object.entries(r.query))
    for (const item of Array.isArray(v) ? v : [v])
      search.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
  const url = `${path}${search.size > 0 ? `?${search}` : ''}`;
  const headers: Record<string, string> = { authorization: tokens[r.role]!, locale: r.locale };
  const method = r.route.method as InjectOptions['method'];
  if (r.route.method === 'GET') return { method, url, headers };
  headers['content-type'] = 'application/json';
  return { method, url, headers, payload: r.rawBody ?? JSON.stringify(r.body) };
}

/** A digest of every table a fuzzed request must not change (not sessions, logs, throttle). */
export async function dataDigest(database: Database): Promise<Record<string, string>> {
  const tables = await database.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'
        and table_name not in ('sessions', 'login_failures', 'operation_logs', 'captchas',
          'health_probe', 'known_sign_in_addresses')
      order by 1`,
  );
  const digest: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await database.query<{ d: string | null }>(
      `select md5(string_agg(t::text, ',' order by t::text)) as d from "${name}" t`,
    );
    digest[name] = row?.d ?? '';
  }
  return digest;
}

/** Runs `count` generated requests (seeded); answers every status seen ≥ 500 with its request. */
export async function runFuzz(
  app: FastifyInstance,
  tokens: readonly string[],
  options: { seed: number; count: number; poisoned: boolean },
): Promise<{
  requests: number;
  failures: Array<{ status: number; method: string; url: string; body: string }>;
  statuses: Map<number, number>;
}> {
  const samples = fc.sample(fuzzRequests(fuzzableRoutes(app), options.poisoned), {
    seed: options.seed,
    numRuns: options.count,
  });
  const failures: Array<{ status: number; method: string; url: string; body: string }> = [];
  const statuses = new Map<number, number>();
  for (const sample of samples) {
    const request = toInject(sample, tokens);
    const res = await app.inject(request);
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    if (res.statusCode >= 500)
      failures.push({
        status: res.statusCode,
        method: String(request.method),
        url: String(request.url),
        body: String(request.payload ?? '').slice(0, 300),
      });
  }
  return { requests: samples.length, failures, statuses };
}
