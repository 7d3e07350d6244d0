import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

const modify = (t: TestApp, token: string, payload: object, locale = 'en') =>
  t.app.inject({
    method: 'PUT',
    url: '/api/user/modifyPwd',
    headers: { authorization: `Bearer ${token}`, locale },
    payload,
  });

describe.each(testDatabaseTargets())('password change on $name', (target) => {
  let t: TestApp;
  let lihua: TestApp;
  beforeAll(async () => {
    [t, lihua] = await Promise.all([
      createTestApp(target),
      createTestApp(target, { ROOST_EDITION: 'lihua' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), lihua?.close()]);
  });

  it('refuses a new password without lowercase, uppercase and digit, or shorter than 6', async () => {
    const token = await t.signIn('farm');
    for (const weak of ['roost12345', 'ROOST12345', 'RoostRoost', 'Ro1']) {
      const res = await modify(t, token, {
        type: true,
        oldPassword: 'Roost12345',
        newPassword: weak,
      });
      expect(res.statusCode, weak).toBe(400);
      expect(bodyOf(res).msg).toBe(
        'The password needs at least 6 characters with a lowercase letter, an uppercase letter and a digit.',
      );
    }
    const zh = await modify(
      t,
      token,
      { type: true, oldPassword: 'Roost12345', newPassword: 'abc' },
      'zh',
    );
    expect(bodyOf(zh).msg).toBe('密码至少 6 位，且须包含小写字母、大写字母和数字。');
  });

  it('demands 10 characters in the lihua edition', async () => {
    const token = await lihua.signIn('farm');
    const short = await modify(lihua, token, {
      type: true,
      oldPassword: 'Roost12345',
      newPassword: 'Abc12345',
    });
    expect(short.statusCode).toBe(400);
    expect(bodyOf(short).msg).toContain('at least 10 characters');
    const config = bodyOf<{ edition: string }>(await lihua.app.inject({ url: '/api/config' })).data;
    expect(config.edition).toBe('lihua');
  });

  it('refuses a wrong old password and changes nothing', async () => {
    const token = await t.signIn('area');
    const res = await modify(t, token, {
      type: true,
      oldPassword: 'Wrong12345',
      newPassword: 'NewPass123',
    });
    expect(res.statusCode).toBe(400);
    expect(bodyOf(res).msg).toBe('The old password is wrong.');
    expect(await t.signIn('area')).toBeTruthy();
  });

  it('changes the password: only the new one signs in, and other sessions end', async () => {
    const other = await t.signIn('shack');
    const token = await t.signIn('shack');
    const res = await modify(t, token, {
      type: true,
      oldPassword: 'Roost12345',
      newPassword: 'Henhouse42',
    });
    expect(res.statusCode).toBe(200);
    expect(bodyOf(res)).toMatchObject({ success: true, msg: 'Password changed.' });
    await expect(t.signIn('shack')).rejects.toThrow(/Wrong user name or password/);
    expect(await t.signIn('shack', 'Henhouse42')).toBeTruthy();
    expect(
      (await t.app.inject({ url: '/api/user/getCurrent', headers: { authorization: other } }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/user/getCurrent', headers: { authorization: token } }))
        .statusCode,
    ).toBe(200);
  });
});
