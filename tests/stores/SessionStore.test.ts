import { describe, expect, it } from 'vitest';
import { parseCurrentUser, SessionError } from '../../src/stores/SessionStore';
import { createTestStores, currentUser, ok, refuse, SIGNED_IN } from './fakeApi';

describe('SessionStore', () => {
  it('keeps the token and the user id in the two credential cookies after sign-in', async () => {
    const t = createTestStores({ 'POST /login': () => ok({ userId: 7, token: 'fresh' }) });
    t.setOnLogin(true);
    await t.stores.session.login({
      username: 'admin',
      password: 'Roost12345',
      codeId: 'c1',
      code: 'abcd',
    });
    expect(t.cookies.get('Admin-Token')).toBe('fresh');
    expect(t.cookies.get('Admin-UserId')).toBe('7');
    expect(t.stores.session.hasCredentials).toBe(true);
    expect(t.requests[0]?.body).toEqual({
      username: 'admin',
      password: 'Roost12345',
      codeId: 'c1',
      code: 'abcd',
    });
  });

  it('needs both cookies to count as signed in', () => {
    expect(
      createTestStores({}, { cookies: { 'Admin-Token': 'x' } }).stores.session.hasCredentials,
    ).toBe(false);
    expect(createTestStores({}, { cookies: SIGNED_IN }).stores.session.hasCredentials).toBe(true);
  });

  it('reads the current user: role, name and the string flags', async () => {
    const t = createTestStores(
      {
        'GET /user/getCurrent': () =>
          ok(currentUser('farm_manager', { remoteConfigFlag: '1', canOperate: '0', mapType: '2' })),
      },
      { cookies: SIGNED_IN },
    );
    await t.stores.session.loadCurrentUser();
    const { session } = t.stores;
    expect([
      session.roleKey,
      session.name,
      session.canOperate,
      session.remoteConfigFlag,
      session.mapType,
    ]).toEqual(['farm_manager', 'Demo Administrator', false, true, '2']);
  });

  it('refuses a current user without a role with "getInfo: user role incorrect"', () => {
    expect(() => parseCurrentUser(currentUser(undefined))).toThrow(SessionError);
    expect(() => parseCurrentUser(currentUser('owner'))).toThrow(
      expect.objectContaining({ reason: 'login.roleIncorrect' }),
    );
  });

  it('logs out on the server, then forgets token, role and both cookies', async () => {
    const t = createTestStores(
      {
        'GET /user/getCurrent': () => ok(currentUser('administrator')),
        'POST /logout': () => ok(null),
      },
      { cookies: { ...SIGNED_IN, language: 'zh' } },
    );
    await t.stores.session.loadCurrentUser();
    await t.stores.logout();
    expect(t.requests.map((r) => `${r.method} ${r.path}`)).toContain('POST /logout');
    expect(t.stores.session.roleKey).toBeNull();
    expect(t.stores.session.token).toBeUndefined();
    expect([...t.cookies.values.keys()]).toEqual(['language']);
  });

  it('ends the local session even when the server already dropped it', async () => {
    const t = createTestStores(
      { 'POST /logout': () => refuse(401, 'Your session has ended.') },
      { cookies: SIGNED_IN },
    );
    await t.stores.logout();
    expect(t.stores.session.hasCredentials).toBe(false);
    expect(t.errors).toEqual([]);
    expect(t.signedOut).toEqual([]);
  });
});
