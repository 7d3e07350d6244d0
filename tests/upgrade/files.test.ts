import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPGRADE_FILE_MAX_BYTES, type UpgradeFile } from '../../src/contract/upgrade';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, injectLogged, signInAll } from '../admin/client';

function multipart(filename: string, bytes: Buffer) {
  const boundary = '----roostUpgradeBoundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe.each(testDatabaseTargets())('upgrade files on $name', (target) => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof signInAll>>;
  let dataDir: string;

  beforeAll(async () => {
    // A real data directory: the files must land on disk, whole or not at all.
    dataDir = await mkdtemp(path.join(tmpdir(), 'roost-upgrade-'));
    t = await createTestApp(target, { DATA_DIR: dataDir });
    tokens = await signInAll(t);
  });
  afterAll(async () => {
    await t?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const upload = (
    filename: string,
    bytes: Buffer,
    version = '2.1.0',
    token = tokens.admin,
    locale = 'en',
  ) => {
    const body = multipart(filename, bytes);
    return injectLogged(t, token, {
      method: 'POST',
      url: `/api/upgrade/uploadFile?version=${encodeURIComponent(version)}&typeKeys=25,26`,
      headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType, locale },
      payload: body.payload,
    });
  };
  const stored = async () =>
    (await readdir(path.join(dataDir, 'upgrades')).catch(() => [] as string[])).sort();

  it('stores exactly 5 MB under its SHA-256, named without a suffix, and lists it', async () => {
    const bytes = Buffer.alloc(UPGRADE_FILE_MAX_BYTES, 3);
    const res = await upload('gateway-firmware', bytes);
    expect(res.statusCode).toBe(200);
    const file = res.json<{ data: UpgradeFile }>().data;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(file).toMatchObject({ sha256, size: UPGRADE_FILE_MAX_BYTES, version: '2.1.0' });
    expect((await readFile(path.join(dataDir, 'upgrades', sha256))).equals(bytes)).toBe(true);

    // The names gateways' files carry: letters, digits and underscores, no dot.
    const other = await upload('IEC12_2_9_0', Buffer.from('firmware 2.2'), '2.2.0');
    expect(other.statusCode).toBe(200);
    expect(other.json<{ data: UpgradeFile }>().data.fileName).toBe('IEC12_2_9_0');

    const list = await call<UpgradeFile[]>(t, tokens.admin, 'GET', '/upgrade/files');
    expect(list.data.map((f) => f.version).sort()).toEqual(['2.1.0', '2.2.0']);
  });

  it('refuses a file with a suffix in the user language and keeps nothing of it', async () => {
    const before = await stored();
    const bin = await upload('gw.bin', Buffer.from('firmware 4.0'), '4.0.0');
    expect(bin.statusCode).toBe(400);
    expect(bin.json<{ msg: string }>().msg).toBe(
      'An upgrade file has no suffix: rename gw.bin to gw.',
    );
    const tarball = await upload(
      'firmware.tar.gz',
      Buffer.alloc(UPGRADE_FILE_MAX_BYTES, 5),
      '4.0.1',
      tokens.admin,
      'zh',
    );
    expect(tarball.statusCode).toBe(400);
    expect(tarball.json<{ msg: string }>().msg).toBe(
      '升级文件不能带后缀：请将 firmware.tar.gz 重命名为 firmware。',
    );
    expect(await stored()).toEqual(before);
    const list = await call<UpgradeFile[]>(t, tokens.admin, 'GET', '/upgrade/files');
    expect(list.data.map((f) => f.version)).not.toContain('4.0.0');
    expect(list.data.map((f) => f.version)).not.toContain('4.0.1');
  });

  it('refuses 5 MB + 1 byte with 413 in the user language and keeps nothing of it', async () => {
    const before = await stored();
    const res = await upload(
      'big',
      Buffer.alloc(UPGRADE_FILE_MAX_BYTES + 1, 4),
      '3.0.0',
      tokens.admin,
      'zh',
    );
    expect(res.statusCode).toBe(413);
    expect(res.json<{ msg: string }>().msg).toBe('升级文件不能超过 5MB。');
    expect(await stored()).toEqual(before);
  });

  it('refuses an empty file, a missing file and a bad version with clear 400s', async () => {
    const empty = await upload('empty', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ msg: string }>().msg).toBe('The upgrade file is empty.');

    const badVersion = await upload('fw', Buffer.from('x'), '../etc');
    expect(badVersion.statusCode).toBe(400);
    expect(badVersion.json<{ msg: string }>().msg).toMatch(/version/i);

    const noFile = await call(
      t,
      tokens.admin,
      'POST',
      '/upgrade/uploadFile?version=1.0.0&typeKeys=25',
      {},
    );
    expect(noFile.status).toBe(400);
  });

  it('refuses a file that does not say which gateway types it is for, in en and zh', async () => {
    const typeless = await call(t, tokens.admin, 'POST', '/upgrade/uploadFile?version=1.0.0', {});
    expect(typeless.status).toBe(400);
    expect(typeless.msg).toBe('Choose the gateway type(s) the file is for.');
    const unknown = await call(
      t,
      tokens.admin,
      'POST',
      '/upgrade/uploadFile?version=1.0.0&typeKeys=25,99',
      {},
      'zh',
    );
    expect(unknown.status).toBe(400);
    expect(unknown.msg).toBe('网关类型无效，请从列表中选择。');
  });

  it('deletes a file no upgrade installs: gone from the list, from the disk and from the dialog', async () => {
    const bytes = Buffer.from('firmware 5.0 for deleting');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect((await upload('IEC12_5_0_0', bytes, '5.0.0')).statusCode).toBe(200);
    expect(await stored()).toContain(sha256);

    const res = await call(t, tokens.admin, 'POST', '/upgrade/deleteFile', { sha256 }, 'zh');
    expect(res.status).toBe(200);
    expect(res.msg).toBe('升级文件已删除。');
    expect(await stored()).not.toContain(sha256);
    for (const url of ['/upgrade/files', '/upgrade/choices']) {
      const list = await call<UpgradeFile[]>(t, tokens.admin, 'GET', url);
      expect(list.data.map((f) => f.sha256)).not.toContain(sha256);
    }
    const [log] = await t.database.query<{ fn: string }>(
      `select function as fn from operation_logs order by id desc limit 1`,
    );
    expect(log?.fn).toBe('upgrade.deleteFile');
    // Deleted once: a second delete finds nothing.
    const again = await call(t, tokens.admin, 'POST', '/upgrade/deleteFile', { sha256 });
    expect(again.status).toBe(404);
    expect(again.msg).toBe('No such upgrade file.');
  });

  it('keeps a file while an upgrade installs it, and says how many gateways do', async () => {
    const bytes = Buffer.from('firmware 6.0 being installed');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect((await upload('IEC12_6_0_0', bytes, '6.0.0')).statusCode).toBe(200);
    const [gateway] = await t.database.query<{ id: number; house_id: number }>(
      'select id, house_id from gateways where house_id is not null order by id limit 1',
    );
    const command = async (id: string, state: string) => {
      await t.database.query(
        `insert into gateway_commands (id, gateway_id, house_id, kind, state, params,
           requested_by_name, expires_at)
         values ($1, $2, $3, 'upgrade', $4, '{}'::jsonb, 'test', now() + interval '1 hour')`,
        [id, gateway!.id, gateway!.house_id, state],
      );
      await t.database.query(
        `insert into gateway_upgrades (command_id, sha256, version, from_version, file_name)
         values ($1, $2, '6.0.0', '5.9.0', 'IEC12_6_0_0')`,
        [id, sha256],
      );
    };
    await command(`upgrade-done-${sha256.slice(0, 8)}`, 'applied');
    await command(`upgrade-open-${sha256.slice(0, 8)}`, 'sent');

    const refused = await call(t, tokens.admin, 'POST', '/upgrade/deleteFile', { sha256 });
    expect(refused.status).toBe(409);
    expect(refused.msg).toBe(
      'Gateways still installing this file: 1. Delete it once their upgrades have finished.',
    );
    expect(await stored()).toContain(sha256);
    const list = await call<UpgradeFile[]>(t, tokens.admin, 'GET', '/upgrade/files');
    expect(list.data.map((f) => f.sha256)).toContain(sha256);

    // Once the upgrade has finished, the file goes; the finished upgrades keep what they installed.
    await t.database.query(`update gateway_commands set state = 'failed' where id = $1`, [
      `upgrade-open-${sha256.slice(0, 8)}`,
    ]);
    const res = await call(t, tokens.admin, 'POST', '/upgrade/deleteFile', { sha256 });
    expect(res.status).toBe(200);
    expect(await stored()).not.toContain(sha256);
    const kept = await t.database.query<{ n: number }>(
      'select count(*)::int as n from gateway_upgrades where sha256 = $1',
      [sha256],
    );
    expect(kept[0]?.n).toBe(2);
  });

  /** A house whose gateway the test files (types 25 and 26) fit. */
  const fittingHouse = async () => {
    const [row] = await t.database.query<{ house_id: number; id: number }>(
      `select house_id, id from gateways where house_id is not null and type_key in (25, 26)
       order by id limit 1`,
    );
    return row!;
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('a send under way when the delete comes: the delete waits for it and refuses', async () => {
    const bytes = Buffer.from('firmware 7.0 sent while deleted');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect((await upload('IEC12_7_0_0', bytes, '7.0.0')).statusCode).toBe(200);
    const gateway = await fittingHouse();
    const id = `upgrade-race-${sha256.slice(0, 8)}`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    // A send as queueUpgrade makes one: it holds the file's row until it has queued the upgrade.
    const sending = t.database.transaction(async ({ query }) => {
      await query(`select 1 from upgrade_files where sha256 = $1 for share`, [sha256]);
      locked();
      await held;
      await query(
        `insert into gateway_commands (id, gateway_id, house_id, kind, state, params,
           requested_by_name, expires_at)
         values ($1, $2, $3, 'upgrade', 'queued', '{}'::jsonb, 'test', now() + interval '1 hour')`,
        [id, gateway.id, gateway.house_id],
      );
      await query(
        `insert into gateway_upgrades (command_id, sha256, version, from_version, file_name)
         values ($1, $2, '7.0.0', '6.9.0', 'IEC12_7_0_0')`,
        [id, sha256],
        { last: true },
      );
    });
    // Only once the send holds the row: on a loaded machine the delete's request could reach
    // the database before the send's first statement, and then nothing was under way.
    await holding;
    const deleting = call(t, tokens.admin, 'POST', '/upgrade/deleteFile', { sha256 });
    await sleep(300);
    release();
    await sending;
    const res = await deleting;
    expect(res.status).toBe(409);
    expect(await stored()).toContain(sha256);
    await t.database.query(`update gateway_commands set state = 'failed' where id = $1`, [id]);
  });

  it('a delete under way when the send comes: the send waits for it and finds no file', async () => {
    const bytes = Buffer.from('firmware 7.1 deleted while sent');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect((await upload('IEC12_7_1_0', bytes, '7.1.0')).statusCode).toBe(200);
    const gateway = await fittingHouse();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    // A delete as the route makes one: the row locked, then gone at the commit.
    const deleting = t.database.transaction(async ({ query }) => {
      await query(`select 1 from upgrade_files where sha256 = $1 for update`, [sha256]);
      await query(`delete from upgrade_files where sha256 = $1`, [sha256]);
      locked();
      await held;
    });
    await holding;
    const sending = call(t, tokens.admin, 'POST', '/upgrade/send', {
      houseIds: [gateway.house_id],
      sha256,
    });
    await sleep(300);
    release();
    await deleting;
    const res = await sending;
    expect(res.status).toBe(404);
    expect(res.msg).toBe('No such upgrade file.');
    const queued = await t.database.query<{ n: number }>(
      'select count(*)::int as n from gateway_upgrades where sha256 = $1',
      [sha256],
    );
    expect(queued[0]?.n).toBe(0);
  });

  it('refuses a delete that names no file by its SHA-256 with a clear 400', async () => {
    const missing = await call(t, tokens.admin, 'POST', '/upgrade/deleteFile', {});
    expect(missing.status).toBe(400);
    expect(missing.msg).toBe('Check “Checksum”: the value is not valid.');
    for (const sha256 of ['abc', '../../etc/passwd', 'A'.repeat(64)]) {
      const res = await call(t, tokens.admin, 'POST', '/upgrade/deleteFile', { sha256 });
      expect(res.status).toBe(400);
      expect(res.msg).toBe('No such upgrade file.');
    }
  });

  it('is for administrators only', async () => {
    for (const token of [tokens.company, tokens.area, tokens.farm, tokens.shack]) {
      expect((await upload('fw', Buffer.from('x'), '1.0.0', token)).statusCode).toBe(403);
      expect((await call(t, token, 'GET', '/upgrade/files')).status).toBe(403);
      const sha256 = 'a'.repeat(64);
      expect((await call(t, token, 'POST', '/upgrade/deleteFile', { sha256 })).status).toBe(403);
    }
  });
});
