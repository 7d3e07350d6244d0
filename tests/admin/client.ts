import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { and, eq, gt, max } from 'drizzle-orm';
import { expect } from 'vitest';
import { hashToken } from '../../server/auth/tokens';
import { operationLogs, sessions, users } from '../../server/db/schema';
import { bodyOf, type TestApp } from '../helpers/testApp';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Newest operation-log id (0 when the log is empty). */
export async function lastLogId(t: TestApp): Promise<number> {
  const [row] = await t.database.db.select({ id: max(operationLogs.id) }).from(operationLogs);
  return Number(row?.id ?? 0);
}

/** Operation-log rows written after `afterId`, oldest first. */
export function logRowsAfter(t: TestApp, afterId: number) {
  return t.database.db
    .select()
    .from(operationLogs)
    .where(gt(operationLogs.id, afterId))
    .orderBy(operationLogs.id);
}

async function userOfToken(t: TestApp, token: string) {
  const [row] = await t.database.db
    .select({ id: users.id, username: users.username, realName: users.realName })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token))));
  return row;
}

/**
 * Handlers that log under a key other than their path: the kiosk links' creation and
 * revocation kept the keys they were first logged with (src/contract/operationLog.ts; old log
 * rows carry them), while their layout edit logs as `wall.kiosk.layout`.
 */
const LOGGED_AS: Readonly<Record<string, string>> = {
  'wall.kiosk.create': 'wall.kioskCreate',
  'wall.kiosk.revoke': 'wall.kioskRevoke',
};

/** `/org/uploadLogo?id=3` → `org.uploadLogo`: every admin handler logs under its own path. */
export function functionOf(url: string): string {
  const path = url
    .split('?')[0]!
    .replace(/^\/(api\/)?/, '')
    .replace(/\//g, '.');
  return LOGGED_AS[path] ?? path;
}

/**
 * Every change leaves exactly one operation-log row with the right fields, and a
 * refused change leaves none. Every state-changing call the admin tests make goes through
 * here, so the whole suite asserts it without each test repeating it.
 */
export async function injectLogged(
  t: TestApp,
  token: string,
  options: InjectOptions & { method: Method; url: string },
): Promise<LightMyRequestResponse> {
  if (options.method === 'GET') return t.app.inject(options);
  // The operator is read before the call: a deleted or reset user's session may end with it.
  const [operator, before] = await Promise.all([userOfToken(t, token), lastLogId(t)]);
  const startedAt = Date.now();
  const res = await t.app.inject(options);
  const rows = await logRowsAfter(t, before);
  const what = `${options.method} ${options.url} → ${res.statusCode}`;
  if (res.statusCode >= 400) {
    expect(rows, `${what} must not write the operation log`).toEqual([]);
    return res;
  }
  expect(rows, `${what} must write exactly one operation-log row`).toHaveLength(1);
  const row = rows[0]!;
  const source = (options.headers as Record<string, string> | undefined)?.source;
  expect(row, what).toMatchObject({
    operatorId: operator?.id ?? null,
    operatorName: operator ? operator.realName || operator.username : expect.any(String),
    function: functionOf(options.url),
    operation: expect.stringMatching(/\S/),
    source: source ?? 'computer',
  });
  // The database clock and ours are the same machine's; a second either side is generous.
  expect(row.at.getTime(), `${what}: date`).toBeGreaterThanOrEqual(startedAt - 1000);
  expect(row.at.getTime(), `${what}: date`).toBeLessThanOrEqual(Date.now() + 1000);
  // Changes to a house or its gateway name the house; gateway changes name its network id.
  if (/^(house\.(create|update)|gateway\.|flock\.)/.test(row.function)) {
    expect(row.houseId, `${what}: house`).not.toBeNull();
    expect(row.houseName, `${what}: house`).not.toBe('');
  }
  if (row.function.startsWith('gateway.'))
    expect(row.networkId, `${what}: network id`).not.toBe('');
  return res;
}

/** Calls the API as a signed-in user, optionally in a language; answers status and envelope. */
export async function call<T = unknown>(
  t: TestApp,
  token: string,
  method: Method,
  url: string,
  payload?: object,
  locale = 'en',
): Promise<{ status: number; msg: string; data: T; res: LightMyRequestResponse }> {
  const res = await injectLogged(t, token, {
    method,
    url: `/api${url}`,
    headers: { authorization: `Bearer ${token}`, locale },
    ...(payload === undefined ? {} : { payload }),
  });
  const body = res.headers['content-type']?.toString().includes('json')
    ? bodyOf<T>(res)
    : { msg: '', data: undefined as T };
  return { status: res.statusCode, msg: body.msg, data: body.data, res };
}

/** Signs in each demo user once. */
export async function signInAll(
  t: TestApp,
): Promise<Record<'admin' | 'company' | 'area' | 'farm' | 'shack', string>> {
  const [admin, company, area, farm, shack] = await Promise.all(
    ['admin', 'company', 'area', 'farm', 'shack'].map((u) => t.signIn(u)),
  );
  return { admin: admin!, company: company!, area: area!, farm: farm!, shack: shack! };
}
