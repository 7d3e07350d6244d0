import type { LightMyRequestResponse } from 'fastify';
import { bodyOf, type TestApp } from '../helpers/testApp';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls the API as a signed-in user, optionally in a language; answers status and envelope. */
export async function call<T = unknown>(
  t: TestApp,
  token: string,
  method: Method,
  url: string,
  payload?: object,
  locale = 'en',
): Promise<{ status: number; msg: string; data: T; res: LightMyRequestResponse }> {
  const res = await t.app.inject({
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
