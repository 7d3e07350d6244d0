import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { houses, farms } from '../../server/db/schema';
import type { ResetPasswordResult, UserRow } from '../../src/contract/admin';
import { checkNewPassword } from '../../src/contract/password';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, signInAll } from './client';

type Page<T> = { rows: T[]; total: number };

describe.each(testDatabaseTargets())('user management on $name', (target) => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof signInAll>>;
  let weifangHouses: number[];
  let southHouse: number;

  beforeAll(async () => {
    t = await createTestApp(target);
    tokens = await signInAll(t);
    const db = t.database.db;
    const [weifang] = await db.select().from(farms).where(eq(farms.name, 'Weifang Broiler Farm'));
    const [qingyuan] = await db.select().from(farms).where(eq(farms.name, 'Qingyuan Layer Farm'));
    weifangHouses = (await db.select().from(houses).where(eq(houses.farmId, weifang!.id))).map(
      (h) => h.id,
    );
    southHouse = (await db.select().from(houses).where(eq(houses.farmId, qingyuan!.id)))[0]!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const usernames = async (token: string) =>
    (await call<Page<UserRow>>(t, token, 'GET', '/user/list?size=200')).data.rows.map(
      (r) => r.username,
    );

  it('lists only users below the caller, inside its scope', async () => {
    expect(await usernames(tokens.admin)).toEqual(
      expect.arrayContaining(['admin', 'company', 'area', 'farm', 'shack']),
    );
    expect((await usernames(tokens.company)).sort()).toEqual(['area', 'farm', 'shack']);
    expect((await usernames(tokens.area)).sort()).toEqual(['farm', 'shack']);
    expect(await usernames(tokens.farm)).toEqual(['shack']);
    expect((await call(t, tokens.shack, 'GET', '/user/list')).status).toBe(403);
    const filtered = await call<Page<UserRow>>(
      t,
      tokens.admin,
      'GET',
      '/user/list?roleKey=farm_manager&keyword=liu',
    );
    expect(filtered.data.rows.map((r) => r.username)).toEqual(['farm']);
    expect(filtered.data.total).toBe(1);
  });

  it('lets a farm manager create a house manager for its own houses only', async () => {
    const base = { realName: 'New keeper', roleKey: 'shack_manager', password: 'Keeper123' };
    const created = await call<{ id: number }>(t, tokens.farm, 'POST', '/user/save', {
      ...base,
      username: 'keeper1',
      shackIds: [weifangHouses[4]],
    });
    expect(created.status).toBe(200);
    expect(await usernames(tokens.farm)).toContain('keeper1');

    const outside = await call(t, tokens.farm, 'POST', '/user/save', {
      ...base,
      username: 'keeper2',
      shackIds: [southHouse],
    });
    // Outside the scope answers like a missing house (it said 403: an existence oracle).
    expect(outside.status).toBe(404);
    const sameRole = await call(t, tokens.farm, 'POST', '/user/save', {
      ...base,
      username: 'peer',
      roleKey: 'farm_manager',
      farmIds: [],
    });
    expect(sameRole.status).toBe(403);
    const above = await call(
      t,
      tokens.farm,
      'POST',
      '/user/save',
      { ...base, username: 'boss', roleKey: 'area_manager' },
      'zh',
    );
    expect(above.status).toBe(403);
    expect(above.msg).toBe('只能管理角色低于自己的用户。');
    const unplaced = await call(t, tokens.farm, 'POST', '/user/save', {
      ...base,
      username: 'nowhere',
    });
    expect(unplaced.status).toBe(400);
  });

  it('answers 404 for users above or outside the caller, for every change', async () => {
    const all = (await call<Page<UserRow>>(t, tokens.admin, 'GET', '/user/list?size=200')).data
      .rows;
    const idOf = (u: string) => all.find((r) => r.username === u)!.id;
    for (const victim of ['area', 'company', 'admin']) {
      const id = idOf(victim);
      expect((await call(t, tokens.farm, 'DELETE', '/user/delete', { id })).status).toBe(404);
      expect((await call(t, tokens.farm, 'PUT', '/user/resetPwd', { id })).status).toBe(404);
      const update = await call(t, tokens.farm, 'POST', '/user/save', {
        id,
        username: victim,
        roleKey: 'shack_manager',
        shackIds: [weifangHouses[0]],
      });
      expect(update.status).toBe(404);
    }
    // A company manager cannot give its own role either.
    const promote = await call(t, tokens.company, 'POST', '/user/save', {
      id: idOf('area'),
      username: 'area',
      roleKey: 'company_manager',
      scopeNodeId: 1,
    });
    expect(promote.status).toBe(403);
  });

  it('refuses a weak new password with the rule in the request language', async () => {
    const payload = {
      username: 'weak',
      roleKey: 'shack_manager',
      password: 'abcdef',
      shackIds: [weifangHouses[0]],
    };
    const en = await call(t, tokens.admin, 'POST', '/user/save', payload, 'en');
    expect(en.status).toBe(400);
    expect(en.msg).toBe(
      'The password needs at least 6 characters with a lowercase letter, an uppercase letter and a digit.',
    );
    const zh = await call(t, tokens.admin, 'POST', '/user/save', payload, 'zh');
    expect(zh.msg).toBe('密码至少 6 位，且须包含小写字母、大写字母和数字。');
    const missing = await call(t, tokens.admin, 'POST', '/user/save', {
      ...payload,
      password: undefined,
    });
    expect(missing.status).toBe(400);
    const badName = await call(
      t,
      tokens.admin,
      'POST',
      '/user/save',
      { ...payload, username: 'a b' },
      'zh',
    );
    expect(badName.msg).toBe('登录名只能包含字母、数字和 . _ @ -。');
    const taken = await call(t, tokens.admin, 'POST', '/user/save', {
      ...payload,
      username: 'ADMIN',
      password: 'Abcdef1',
    });
    expect(taken.status).toBe(409);
  });

  it('resets a password once: a random password that meets the rule, all sessions ended', async () => {
    const shackToken = await t.signIn('shack');
    const all = (await call<Page<UserRow>>(t, tokens.farm, 'GET', '/user/list')).data.rows;
    const shack = all.find((r) => r.username === 'shack')!;
    const reset = await call<ResetPasswordResult>(t, tokens.farm, 'PUT', '/user/resetPwd', {
      id: shack.id,
    });
    expect(reset.status).toBe(200);
    expect(checkNewPassword(reset.data.password, 'lihua')).toBeNull();
    expect((await call(t, shackToken, 'GET', '/user/getCurrent')).status).toBe(401);
    expect((await call(t, tokens.shack, 'GET', '/user/getCurrent')).status).toBe(401);
    await expect(t.signIn('shack', reset.data.password)).resolves.toBeTypeOf('string');
  });

  it('assigns houses to a house manager and finds users by house', async () => {
    const all = (await call<Page<UserRow>>(t, tokens.area, 'GET', '/user/list')).data.rows;
    const shack = all.find((r) => r.username === 'shack')!;
    const save = (shackIds: number[], token = tokens.area) =>
      call(t, token, 'PUT', '/user/saveUserShacks', {
        id: shack.id,
        roleKey: 'shack_manager',
        shackIds,
      });
    expect((await save([weifangHouses[5]!, weifangHouses[6]!])).status).toBe(200);
    const found = await call<Page<UserRow>>(
      t,
      tokens.area,
      'GET',
      `/user/searchByShack?shackId=${weifangHouses[5]}`,
    );
    expect(found.data.rows.map((r) => r.username)).toContain('shack');
    expect((await save([southHouse])).status).toBe(404);
    expect(
      (await call(t, tokens.area, 'GET', `/user/searchByShack?shackId=${southHouse}`)).status,
    ).toBe(404);
    const wrongRole = await call(t, tokens.area, 'PUT', '/user/saveUserShacks', {
      id: shack.id,
      roleKey: 'farm_manager',
      shackIds: [],
    });
    expect(wrongRole.status).toBe(400);
  });

  it('deletes a user it manages and writes every change to the operation log', async () => {
    const created = await call<{ id: number }>(t, tokens.admin, 'POST', '/user/save', {
      username: 'temp',
      roleKey: 'farm_manager',
      password: 'Temp12345',
      farmIds: [],
    });
    expect(created.status).toBe(200);
    expect(
      (await call(t, tokens.admin, 'DELETE', '/user/delete', { id: created.data.id })).status,
    ).toBe(200);
    const log = await call<Page<{ function: string; remark: string }>>(
      t,
      tokens.admin,
      'GET',
      '/log/list?function=user.&size=50',
    );
    const functions = log.data.rows.map((r) => r.function);
    expect(functions).toEqual(
      expect.arrayContaining(['user.save', 'user.delete', 'user.resetPwd', 'user.saveUserShacks']),
    );
  });
});

describe.each(testDatabaseTargets())('the lihua password rule on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { ROOST_EDITION: 'lihua' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('needs 10 characters for a new user', async () => {
    const admin = await t.signIn('admin');
    const base = { roleKey: 'farm_manager', farmIds: [] };
    const short = await call(t, admin, 'POST', '/user/save', {
      ...base,
      username: 'nine',
      password: 'Abcdefg12',
    });
    expect(short.status).toBe(400);
    expect(short.msg).toContain('at least 10 characters');
    const long = await call(t, admin, 'POST', '/user/save', {
      ...base,
      username: 'ten',
      password: 'Abcdefg123',
    });
    expect(long.status).toBe(200);
  });
});
