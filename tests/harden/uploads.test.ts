import { mkdtemp, readdir, rm, utimes, writeFile, mkdir } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPGRADE_FILE_MAX_BYTES } from '../../src/contract/upgrade';
import { upgradeFiles } from '../../server/db/upgradeSchema';
import { inputRefusedByDatabase } from '../../server/http/errors';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { waitFor } from '../helpers/waitFor';
import { signInAll } from '../admin/client';

/** How far past the limit the oversized upload goes: megabytes the server has not read at its 413. */
const EXTRA = 3 * 1024 * 1024;
const BOUNDARY = '----roostHardenBoundary';

/** A multipart body of one file, its name written raw (a NUL byte and all). */
function multipart(filename: string, bytes: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

describe.each(testDatabaseTargets())('upgrade uploads under attack on $name', (target) => {
  let t: TestApp;
  let admin: string;
  let dataDir: string;
  let base: URL;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'roost-uploads-'));
    // A part-file a dead process left an hour ago, and one an upload is writing now.
    await mkdir(path.join(dataDir, 'upgrades'));
    const old = path.join(dataDir, 'upgrades', '.upload-left-by-a-crash');
    await writeFile(old, 'half a file');
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    await utimes(old, hourAgo, hourAgo);
    await writeFile(path.join(dataDir, 'upgrades', '.upload-in-progress'), 'a quarter');
    t = await createTestApp(target, { DATA_DIR: dataDir });
    admin = (await signInAll(t)).admin;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = new URL(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    await t?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const onDisk = async () => (await readdir(path.join(dataDir, 'upgrades'))).sort();
  const upload = (filename: string, bytes: Buffer, locale = 'en', version = '7.0.0') =>
    t.app.inject({
      method: 'POST',
      url: `/api/upgrade/uploadFile?version=${version}&typeKeys=25`,
      headers: {
        authorization: `Bearer ${admin}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        locale,
      },
      payload: multipart(filename, bytes),
    });

  it('a part-file left by a crash is swept at start; one being written stays', async () => {
    expect(await onDisk()).toEqual(['.upload-in-progress']);
  });

  it('refuses a NUL, a control character or an overlong file name with a 400 in the user language, keeping nothing', async () => {
    const before = await onDisk();
    const nul = await upload('FW\0EVIL', Buffer.from('evil firmware'));
    expect(nul.statusCode).toBe(400);
    expect(nul.json<{ msg: string }>().msg).toBe(
      'The file name must be 1 to 100 characters, without control characters, / or \\.',
    );
    // (busboy takes a path's last part itself: `../../FW` arrives as `FW`.)
    for (const name of ['FW\u0001X', 'FW\u007FX', 'x'.repeat(101)]) {
      const res = await upload(name, Buffer.from(`firmware ${name}`), 'zh');
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json<{ msg: string }>().msg).toBe(
        '文件名须为 1 到 100 个字符，不能包含控制字符、/ 或 \\。',
      );
    }
    expect(await onDisk()).toEqual(before);
    expect(await t.database.db.select().from(upgradeFiles)).toEqual([]);
  });

  it('the driver code is found under Drizzle: a unique violation is a 409, a NUL a 400', async () => {
    const row = {
      sha256: 'a'.repeat(64),
      version: '1.0.0',
      fileName: 'FW',
      size: 1,
      typeKeys: [25],
    };
    await t.database.db.insert(upgradeFiles).values(row);
    const duplicate = await t.database.db
      .insert(upgradeFiles)
      .values(row)
      .catch((e: unknown) => e);
    expect(inputRefusedByDatabase(duplicate)?.status).toBe(409);
    const nul = await t.database.db
      .insert(upgradeFiles)
      .values({ ...row, sha256: 'b'.repeat(64), fileName: 'FW\0EVIL' })
      .catch((e: unknown) => e);
    expect(inputRefusedByDatabase(nul)?.status).toBe(400);
    await t.database.query('delete from upgrade_files');
  });

  it('when the row cannot be written the bytes do not stay on disk, and the answer is a 4xx', async () => {
    // The database refuses the row as it would a byte it cannot store (SQLSTATE 22021).
    await t.database
      .query(`create function refuse_upgrade_file() returns trigger language plpgsql as $$
      begin raise exception 'refused' using errcode = '22021'; end $$`);
    await t.database.query(`create trigger refuse before insert on upgrade_files
      for each row execute function refuse_upgrade_file()`);
    try {
      const before = await onDisk();
      const res = await upload('FW_REFUSED', Buffer.from('firmware the database refuses'));
      expect(res.statusCode).toBe(400);
      expect(await onDisk()).toEqual(before);
    } finally {
      await t.database.query('drop trigger refuse on upgrade_files');
      await t.database.query('drop function refuse_upgrade_file');
    }
  });

  it('an upload cut off mid-body leaves no part-file', async () => {
    const before = await onDisk();
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="FW_CUT"\r\n\r\n`,
    );
    const socket = net.connect(Number(base.port), base.hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/upgrade/uploadFile?version=7.1.0&typeKeys=25 HTTP/1.1\r\nHost: ${base.host}\r\n` +
        `Authorization: Bearer ${admin}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
        `Content-Length: ${head.length + 2_000_000}\r\n\r\n`,
    );
    socket.write(head);
    socket.write(Buffer.alloc(300_000, 7));
    // The part-file is there while the body comes in...
    const partFile = await waitFor(async () =>
      (await onDisk()).find((name) => !before.includes(name)),
    );
    expect(partFile).toMatch(/^\.upload-/);
    socket.destroy();
    // ...and gone once the client is.
    await waitFor(async () => ((await onDisk()).includes(partFile) ? undefined : true));
    expect(await onDisk()).toEqual(before);
  });

  it('after a 413 the same keep-alive connection serves the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const request = (options: http.RequestOptions, body?: Buffer) =>
      new Promise<{ status: number; text: string; socket: net.Socket }>((resolve, reject) => {
        const req = http.request(
          { host: base.hostname, port: base.port, agent, ...options },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, text, socket: req.socket! }),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      for (let round = 0; round < 3; round += 1) {
        const big = await request(
          {
            method: 'POST',
            path: `/api/upgrade/uploadFile?version=7.2.${round}&typeKeys=25`,
            headers: {
              authorization: `Bearer ${admin}`,
              'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
            },
          },
          multipart('FW_BIG', Buffer.alloc(UPGRADE_FILE_MAX_BYTES + EXTRA, 9)),
        );
        expect(big.status).toBe(413);
        expect(JSON.parse(big.text)).toMatchObject({
          msg: 'The upgrade file is larger than 5 MB.',
        });
        const next = await request({
          method: 'GET',
          path: '/api/upgrade/files',
          headers: { authorization: `Bearer ${admin}` },
        });
        expect(next.status).toBe(200);
        // The same connection: it was kept, not closed and replaced.
        expect(next.socket).toBe(big.socket);
      }
    } finally {
      agent.destroy();
    }
  });
});
