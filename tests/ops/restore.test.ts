import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_DATABASE, BACKUP_MANIFEST, type BackupManifest } from '../../src/contract/backup';
import { openDatabase } from '../../server/db/open';
import { restoreBackup } from '../../server/ops/restore';
import { TAR_END, tarHeader, tarPadding } from '../../server/ops/tar';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'roost-restore-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const AT = new Date('2026-11-27T08:00:00Z');
const firmware = Buffer.from('ROOST-FIRMWARE 3.0.0\n'.repeat(100));
const firmwareName = `upgrades/${createHash('sha256').update(firmware).digest('hex')}`;

/** A backup as the server writes it: manifest, database (when given), files. */
function archive(
  files: Array<{ path: string; bytes: Buffer }>,
  options: { dump?: Uint8Array; manifest?: Partial<BackupManifest> } = {},
): Buffer {
  const manifest = Buffer.from(
    JSON.stringify({
      format: 'roost-backup',
      version: 1,
      requestedAt: AT.toISOString(),
      database: options.dump ? 'pglite' : 'none',
      files: files.map((f) => ({ path: f.path, size: f.bytes.length })),
      ...options.manifest,
    }),
  );
  const entry = (name: string, bytes: Buffer) => [
    tarHeader(name, bytes.length, AT),
    bytes,
    tarPadding(bytes.length),
  ];
  return Buffer.concat([
    ...entry(BACKUP_MANIFEST, manifest),
    ...(options.dump ? entry(BACKUP_DATABASE, Buffer.from(options.dump)) : []),
    ...files.flatMap((f) => entry(`files/${f.path}`, f.bytes)),
    TAR_END,
  ]);
}

async function written(name: string, bytes: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

describe('npm run restore', () => {
  it('puts the files back in their places (mode 0600) and the database into pgdata', async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
    const dump = await database.dump!();
    await database.close();
    const key = Buffer.from('ab'.repeat(32));
    const from = await written(
      'whole.tar',
      archive(
        [
          { path: 'camera-secret.key', bytes: key },
          { path: firmwareName, bytes: firmware },
        ],
        { dump },
      ),
    );
    const target = path.join(dir, 'whole');
    const result = await restoreBackup(from, target);
    expect(result.files).toEqual(['camera-secret.key', firmwareName]);
    expect(result.database).toMatchObject({ users: expect.any(Number) });
    expect(result.databaseOnly).toBe(false);
    expect(await readFile(path.join(target, 'camera-secret.key'))).toEqual(key);
    expect(await readFile(path.join(target, firmwareName))).toEqual(firmware);
    expect((await stat(path.join(target, 'camera-secret.key'))).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(target, 'pgdata', 'PG_VERSION'))).toBe(true);

    // A backup of an older Roost, the gzipped dump alone, still restores: without files.
    const old = await restoreBackup(
      await written('old.tar.gz', Buffer.from(dump)),
      path.join(dir, 'old'),
    );
    expect(old).toMatchObject({ databaseOnly: true, files: [] });
    expect(old.database).toEqual(result.database);
  }, 120_000);

  it('refuses a cut, damaged or unsafe backup before writing anything', async () => {
    const whole = archive([{ path: firmwareName, bytes: firmware }]);
    const refusals: Array<[string, Buffer, RegExp]> = [
      ['cut', whole.subarray(0, whole.length - 2048), /cut short/],
      [
        'no-manifest',
        Buffer.concat([tarHeader('other.txt', 0, AT), TAR_END]),
        /no roost-backup\.json/,
      ],
      [
        'escape',
        archive([{ path: '../outside', bytes: firmware }]),
        /not one this version of Roost reads/,
      ],
      [
        'lock',
        archive([{ path: 'roost.lock', bytes: Buffer.from('1') }]),
        /cannot be restored as a file/,
      ],
      [
        'missing',
        archive([], { manifest: { files: [{ path: firmwareName, size: firmware.length }] } }),
        /missing or cut short/,
      ],
      ['text', Buffer.from('not a backup at all'.repeat(40)), /not a Roost backup/],
    ];
    for (const [name, bytes, why] of refusals) {
      const target = path.join(dir, `refused-${name}`);
      await expect(
        restoreBackup(await written(`${name}.tar`, bytes), target),
        name,
      ).rejects.toThrow(why);
      expect(existsSync(target), name).toBe(false);
    }
    expect(existsSync(path.join(dir, 'outside'))).toBe(false);
  });

  it('refuses an upgrade file whose bytes are not its SHA-256, and leaves no half restore', async () => {
    const damaged = Buffer.from(firmware);
    damaged[10] = 0x21;
    const from = await written('damaged.tar', archive([{ path: firmwareName, bytes: damaged }]));
    const target = path.join(dir, 'damaged');
    await expect(restoreBackup(from, target)).rejects.toThrow(/is damaged/);
    expect(existsSync(target)).toBe(false);
  });
});
