import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BACKUP_DATABASE, BACKUP_MANIFEST, backupManifestSchema } from '../../src/contract/backup';
import { readTarEntries } from '../../server/ops/tar';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp } from '../helpers/testApp';

const TOKEN = 'backup-token-0123456789abcdef';

describe.each(testDatabaseTargets())('POST /ops/backup on $name', (target) => {
  it('answers only its token, with a tar of the manifest and the database (PGlite) or the manifest alone (PostgreSQL, which pg_dump backs up)', async () => {
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
      expect(second.statusCode).toBe(409);
      expect(second.json().msg).toMatch(/being taken/);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-tar');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      // Read back as the restore reads it: from a file, header by header.
      const dir = await mkdtemp(path.join(tmpdir(), 'roost-backup-endpoint-'));
      try {
        const file = path.join(dir, 'backup.tar');
        await writeFile(file, res.rawPayload);
        const handle = await open(file);
        const entries = await readTarEntries(handle).finally(() => handle.close());
        const at = (name: string) => entries.find((e) => e.name === name);
        const slice = (e: { offset: number; size: number }) =>
          res.rawPayload.subarray(e.offset, e.offset + e.size);
        expect(entries[0]!.name).toBe(BACKUP_MANIFEST);
        const manifest = backupManifestSchema.parse(JSON.parse(slice(entries[0]!).toString()));
        // An app on an in-memory DATA_DIR keeps no files beside its database.
        expect(manifest.files).toEqual([]);
        if (target.name === 'pglite') {
          expect(manifest.database).toBe('pglite');
          // A tar of PostgreSQL's data directory: its version file is in it.
          const tar = gunzipSync(slice(at(BACKUP_DATABASE)!));
          expect(tar.toString('latin1')).toContain('PG_VERSION');
        } else {
          expect(manifest.database).toBe('none');
          expect(at(BACKUP_DATABASE)).toBeUndefined();
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      // The first backup is done: another may be taken.
      expect((await backup(`Bearer ${TOKEN}`)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  }, 180_000);
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
