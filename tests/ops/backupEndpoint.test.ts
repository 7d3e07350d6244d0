import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp } from '../helpers/testApp';

const TOKEN = 'backup-token-0123456789abcdef';

describe.each(testDatabaseTargets())('POST /ops/backup on $name', (target) => {
  it('answers only its token, with the database as a gzipped tar (PGlite) or a pointer to pg_dump', async () => {
    const t = await createTestApp(target, { ROOST_BACKUP_TOKEN: TOKEN });
    try {
      const backup = (authorization: string, locale = 'en') =>
        t.app.inject({ method: 'POST', url: '/ops/backup', headers: { authorization, locale } });
      const session = await t.signIn('admin');
      for (const authorization of ['', `Bearer ${TOKEN}0`, TOKEN, `Bearer ${session}`]) {
        const res = await backup(authorization);
        expect(res.statusCode, authorization).toBe(401);
        expect(res.json()).toMatchObject({ code: 401, msg: expect.stringMatching(/Bearer/) });
      }
      expect((await backup('', 'zh')).json().msg).toMatch(/运维令牌/);
      // Two at once: the second is told to wait for the first.
      const [res, second] = await Promise.all([
        backup(`Bearer ${TOKEN}`),
        backup(`Bearer ${TOKEN}`),
      ]);
      if (target.name === 'pglite') {
        expect(second.statusCode).toBe(409);
        expect(second.json().msg).toMatch(/being taken/);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/gzip');
        // A tar of PostgreSQL's data directory: its version file is in it.
        const tar = gunzipSync(res.rawPayload);
        expect(tar.toString('latin1')).toContain('PG_VERSION');
      } else {
        expect(res.statusCode).toBe(409);
        expect(res.json().msg).toMatch(/pg_dump/);
      }
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('POST /ops/backup without ROOST_BACKUP_TOKEN', () => {
  it('does not exist', async () => {
    const t = await createTestApp(testDatabaseTargets()[0]!);
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/ops/backup',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
