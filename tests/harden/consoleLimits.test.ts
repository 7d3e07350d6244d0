import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocumentCookieJar } from '../../src/stores/cookies';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp } from '../helpers/testApp';
import { createTestStores, currentUser, ok, SIGNED_IN } from '../stores/fakeApi';

const WEEK_S = 7 * 24 * 60 * 60;

describe('the console keeps credentials no longer than the server keeps the session', () => {
  it('writes the credential cookies for 7 days at sign-in, and again each time the session is used', async () => {
    const t = createTestStores({ 'POST /login': () => ok({ userId: 7, token: 'fresh' }) });
    t.setOnLogin(true);
    await t.stores.session.login({
      username: 'admin',
      password: 'Roost12345',
      codeId: 'c',
      code: 'x',
    });
    expect(t.cookies.maxAges.get('Admin-Token')).toBe(WEEK_S);
    expect(t.cookies.maxAges.get('Admin-UserId')).toBe(WEEK_S);

    const later = createTestStores(
      { 'GET /user/getCurrent': () => ok(currentUser('farm_manager')) },
      { cookies: SIGNED_IN },
    );
    await later.stores.session.loadCurrentUser();
    expect(later.cookies.maxAges.get('Admin-Token')).toBe(WEEK_S);
  });

  it('tells the browser the lifetime it was given', () => {
    const written: string[] = [];
    const doc = {
      get cookie() {
        return '';
      },
      set cookie(value: string) {
        written.push(value);
      },
      location: { protocol: 'http:' },
    } as unknown as Document;
    new DocumentCookieJar(doc).set('Admin-Token', 'abc', WEEK_S);
    expect(written[0]).toContain(`max-age=${WEEK_S};`);
  });
});

describe.each(testDatabaseTargets().slice(0, 1))('the console page on $name', (target) => {
  it('lets scripts open connections to this site only', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'roost-csp-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Roost</title>');
    const t = await createTestApp(target, {}, { staticDir: dir });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/login' });
      const csp = String(res.headers['content-security-policy']);
      const connect = csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('connect-src'));
      expect(connect).toBe("connect-src 'self'");
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
