import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchas, sessions } from '../../server/db/schema';
import { hashToken } from '../../server/auth/tokens';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

const login = (
  t: TestApp,
  payload: object,
  headers: Record<string, string> = {},
  remoteAddress = '127.0.0.1',
) => t.app.inject({ method: 'POST', url: '/api/login', payload, headers, remoteAddress });

describe.each(testDatabaseTargets())('sign-in on $name', (target) => {
  let t: TestApp;
  let withCaptcha: TestApp;
  beforeAll(async () => {
    [t, withCaptcha] = await Promise.all([
      createTestApp(target),
      createTestApp(target, { ROOST_CAPTCHA: 'on' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), withCaptcha?.close()]);
  });

  it('signs in the demo administrator and answers the current user in the shape the console reads', async () => {
    const token = await t.signIn('  admin  ');
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
    const res = await t.app.inject({
      url: '/api/user/getCurrent',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(bodyOf(res).data).toMatchObject({
      roleKey: 'administrator',
      canOperate: '1',
      remoteConfigFlag: '1',
      mapType: '1',
      name: 'Demo Administrator',
    });
    const stored = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('refuses a wrong password with 401 in the request language', async () => {
    const en = await login(
      t,
      { username: 'admin', password: 'wrong-pass' },
      { locale: 'en' },
      '10.0.1.1',
    );
    expect(en.statusCode).toBe(401);
    expect(bodyOf(en)).toMatchObject({
      success: false,
      code: 401,
      msg: 'Wrong user name or password.',
    });
    const zh = await login(
      t,
      { username: 'admin', password: 'wrong-pass' },
      { locale: 'zh' },
      '10.0.1.2',
    );
    expect(bodyOf(zh).msg).toBe('用户名或密码错误。');
    const unknown = await login(t, { username: 'nobody', password: 'wrong-pass' }, {}, '10.0.1.3');
    expect(bodyOf(unknown).msg).toBe(bodyOf(en).msg);
  });

  it('refuses a wrong or reused captcha, and accepts the right one once', async () => {
    const issue = async () =>
      bodyOf<{ codeId: string; image: string }>(
        await withCaptcha.app.inject({ method: 'POST', url: '/api/getCode' }),
      ).data;
    const first = await issue();
    expect(first.image).toMatch(/^data:image\/svg\+xml;base64,/);
    const wrong = await login(
      withCaptcha,
      { username: 'admin', password: 'Roost12345', codeId: first.codeId, code: 'zzzz' },
      { locale: 'zh' },
      '10.0.2.1',
    );
    expect(wrong.statusCode).toBe(401);
    expect(bodyOf(wrong).msg).toBe('验证码错误或已过期。');

    const second = await issue();
    const [row] = await withCaptcha.database.db
      .select()
      .from(captchas)
      .where(eq(captchas.id, second.codeId));
    const good = await login(
      withCaptcha,
      {
        username: 'admin',
        password: 'Roost12345',
        codeId: second.codeId,
        verifycode: row!.answer.toUpperCase(),
      },
      {},
      '10.0.2.2',
    );
    expect(good.statusCode).toBe(200);
    const reused = await login(
      withCaptcha,
      { username: 'admin', password: 'Roost12345', codeId: second.codeId, code: row!.answer },
      {},
      '10.0.2.3',
    );
    expect(reused.statusCode).toBe(401);
  });

  it('answers 429 from the 6th failure within 15 minutes, even with the right password', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push(
        (await login(t, { username: 'farm', password: 'nope-nope' }, {}, '10.0.3.1')).statusCode,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Held back is the guessing address; the user from another address is not locked out.
    const right = await login(
      t,
      { username: 'farm', password: 'Roost12345' },
      { locale: 'en' },
      '10.0.3.1',
    );
    expect(right.statusCode).toBe(429);
    expect(
      (await login(t, { username: 'farm', password: 'Roost12345' }, {}, '10.0.3.2')).statusCode,
    ).toBe(200);
    expect(bodyOf(right).msg).toMatch(/Too many failed sign-ins\. Try again in 1[45] minutes\./);
    // Another user from a fresh address is not held back by farm's failures.
    expect(
      (await login(t, { username: 'area', password: 'Roost12345' }, {}, '10.0.3.3')).statusCode,
    ).toBe(200);
  });

  it('throttles one address guessing many user names', async () => {
    // 50 failures, not 5: a farm's users share one address.
    const statuses: number[] = [];
    for (let i = 0; i < 51; i += 1)
      statuses.push(
        (await login(t, { username: `guess${i}`, password: 'nope-nope' }, {}, '10.0.4.1'))
          .statusCode,
      );
    expect(statuses.at(-1)).toBe(429);
  });

  it('refuses bad input with 400 and a clear message', async () => {
    const short = await login(
      t,
      { username: 'admin', password: '1234' },
      { locale: 'en' },
      '10.0.5.1',
    );
    expect(short.statusCode).toBe(400);
    expect(bodyOf(short).msg).toBe('The password has at least 5 characters.');
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json', locale: 'zh' },
      payload: '{"username": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(bodyOf(malformed)).toMatchObject({
      success: false,
      code: 400,
      msg: '请求内容不是有效的 JSON。',
    });
    const wrongType = await login(
      t,
      { username: ['admin'], password: 'Roost12345' },
      { locale: 'en' },
      '10.0.5.2',
    );
    expect(wrongType.statusCode).toBe(400);
    // The field by the name the sign-in page gives it, not its key.
    expect(bodyOf(wrongType).msg).toBe('Check “User name”: the value is not valid.');
  });

  it('answers an unknown /api path with a 404 envelope', async () => {
    const res = await t.app.inject({ url: '/api/no/such/thing', headers: { locale: 'en' } });
    expect(res.statusCode).toBe(404);
    expect(bodyOf(res)).toEqual({
      success: false,
      code: 404,
      msg: 'There is nothing at this address.',
      data: null,
    });
  });

  it('answers 401 without a token, with a revoked token and with one idle for 7 days', async () => {
    expect((await t.app.inject({ url: '/api/user/getCurrent' })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          url: '/api/user/getCurrent',
          headers: { authorization: 'Bearer made-up' },
        })
      ).statusCode,
    ).toBe(401);

    const revoked = await t.signIn('company');
    const auth = { authorization: `Bearer ${revoked}` };
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/logout', headers: auth })).statusCode,
    ).toBe(200);
    const after = await t.app.inject({
      url: '/api/user/getCurrent',
      headers: { ...auth, locale: 'zh' },
    });
    expect(after.statusCode).toBe(401);
    expect(bodyOf(after).msg).toBe('登录已失效，请重新登录。');

    const idle = await t.signIn('area');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    await t.database.db
      .update(sessions)
      .set({ lastUsedAt: eightDaysAgo })
      .where(eq(sessions.tokenHash, hashToken(idle)));
    expect(
      (await t.app.inject({ url: '/api/user/getCurrent', headers: { authorization: idle } }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses a state-changing call from another site', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { origin: 'https://evil.example', host: 'roost.local' },
      payload: { username: 'admin', password: 'Roost12345' },
    });
    expect(res.statusCode).toBe(403);
    const sameSite = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { origin: 'http://roost.local', host: 'roost.local' },
      payload: { username: 'admin', password: 'Roost12345' },
      remoteAddress: '10.0.6.1',
    });
    expect(sameSite.statusCode).toBe(200);
  });
});
