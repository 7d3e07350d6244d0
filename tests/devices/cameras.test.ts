import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Camera } from '../../src/contract/cameras';
import { KEY_FILE, secretBoxFrom } from '../../server/devices/secrets';
import { freePort } from '../helpers/processes';
import {
  testDatabaseTargets,
  type CreatedDatabase,
  type TestDatabaseTarget,
} from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { caller, houseNamed } from './helpers';

const PASSWORD = 'Plain-Pass-7731';
const VERIFY = 'VRFY-KQ93ZT';
const USER = 'cam-login-5518';

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

async function bytesContain(dir: string, needle: string): Promise<boolean> {
  const n = Buffer.from(needle, 'utf8');
  for (const file of await filesUnder(dir)) if ((await readFile(file)).includes(n)) return true;
  return false;
}

async function onDisk(): Promise<CreatedDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), 'roost-cam-db-'));
  return {
    target: { kind: 'pglite' as const, dataDir: dir },
    drop: () => rm(dir, { recursive: true, force: true }),
  };
}

/** PGlite in files of its own (the database file is what is read), and PostgreSQL. */
const targets: TestDatabaseTarget[] = testDatabaseTargets().map((target) =>
  target.name === 'pglite'
    ? {
        name: 'pglite on disk',
        create: onDisk,
        createMigrated: onDisk,
      }
    : target,
);

describe.each(targets)('cameras on $name', (target) => {
  let t: TestApp;
  let dataDir: string;
  let databaseDir: string | null = null;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'roost-cam-'));
    const noted = async (made: CreatedDatabase) => {
      if (made.target.kind === 'pglite') databaseDir = made.target.dataDir;
      return made;
    };
    const wrapped: TestDatabaseTarget = {
      name: target.name,
      create: async () => noted(await target.create()),
      createMigrated: async () => noted(await target.createMigrated()),
    };
    // Its media gateway is on this machine: loopback is allowed explicitly.
    t = await createTestApp(wrapped, { DATA_DIR: dataDir, ROOST_MEDIA_ALLOW: '127.0.0.1' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a camera name is unique in its house only: a house manager learns nothing of houses out of scope', async () => {
    const farm = caller(t, await t.signIn('farm'));
    const shack = caller(t, await t.signIn('shack'));
    // House 4 is the farm's, out of the house manager's scope (houses 1–3).
    const { houseId: hidden } = await houseNamed(t, 'Weifang Broiler Farm', 'House 4');
    const { houseId } = await houseNamed(t, 'Weifang Broiler Farm', 'House 1');
    const body = { houseId: hidden, name: 'Gate camera', code: 'CAM-G', vendor: 'dahua' };
    expect((await farm('POST', '/camera/create', body)).status).toBe(200);
    const mine = await shack('POST', '/camera/create', { ...body, houseId, code: 'X' });
    expect(mine).toMatchObject({ status: 200, success: true });
    const again = await shack('POST', '/camera/create', { ...body, houseId, code: 'Y' });
    expect(again).toMatchObject({ status: 409, success: false, msg: 'Name existed' });
    const zh = await caller(t, await t.signIn('shack'), 'zh')('POST', '/camera/create', {
      ...body,
      houseId,
    });
    expect(zh).toMatchObject({ status: 409, msg: '名称已存在' });
    const bad = await farm('POST', '/camera/create', { ...body, name: 'Z', streamUrl: 'rtsp://x' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('http');
  });

  it('credentials are sealed at rest and never answered; an edit without a password keeps it', async () => {
    const farm = caller(t, await t.signIn('farm'));
    const { houseId } = await houseNamed(t, 'Weifang Broiler Farm', 'House 3');
    const created = await farm<Camera>('POST', '/camera/create', {
      houseId,
      name: 'Feeder line camera',
      code: 'CAM-F',
      channel: 2,
      vendor: 'hikvision',
      userName: USER,
      password: PASSWORD,
      verifyCode: VERIFY,
      streamUrl: 'http://nvr.local:8888/cam-f/index.m3u8',
    });
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({
      hasUserName: true,
      hasPassword: true,
      hasVerifyCode: true,
      playUrl: 'http://nvr.local:8888/cam-f/index.m3u8',
    });
    const edited = await farm<Camera>('PUT', '/camera/update', {
      id: created.data.id,
      houseId,
      name: 'Feeder line camera',
      code: 'CAM-F',
      vendor: 'hikvision',
      userName: USER,
    });
    expect(edited.data.hasPassword).toBe(true);
    const list = await farm<{ rows: Camera[] }>('GET', `/camera/list?houseId=${houseId}`);
    for (const answer of [created, edited, list]) {
      const text = JSON.stringify(answer);
      for (const secret of [PASSWORD, VERIFY, USER]) expect(text).not.toContain(secret);
    }

    // The key file was made at first start, readable by the server's user only.
    const keyFile = path.join(dataDir, KEY_FILE);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const box = secretBoxFrom({}, dataDir);
    const [row] = await t.database.query<{ secret: string; whole: string }>(
      `select password_secret as secret, c::text as whole from cameras c where id = $1`,
      [created.data.id],
    );
    expect(box.open(row!.secret)).toBe(PASSWORD);
    expect(row!.whole).toContain('Feeder line camera');
    for (const secret of [PASSWORD, VERIFY, USER]) expect(row!.whole).not.toContain(secret);

    if (databaseDir) {
      // The database's own files: the name is there in plain text, the secrets are not.
      await t.database.query('checkpoint');
      expect(await bytesContain(databaseDir, 'Feeder line camera')).toBe(true);
      for (const secret of [PASSWORD, VERIFY, USER])
        expect(await bytesContain(databaseDir, secret)).toBe(false);
    }

    const gone = await farm<{ remaining: number }>('DELETE', '/camera/delete', {
      id: created.data.id,
    });
    expect(gone.data.remaining).toBe(0);
  });

  it('the live stream is relayed from the media gateway; a dead address answers why, in the caller language', async () => {
    const served = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end('#EXTM3U\n'),
    );
    await new Promise<void>((r) => served.listen(0, '127.0.0.1', () => r()));
    const port = (served.address() as AddressInfo).port;
    const farm = caller(t, await t.signIn('farm'));
    const { houseId } = await houseNamed(t, 'Weifang Broiler Farm', 'House 2');
    const make = async (name: string, streamUrl: string) =>
      (
        await farm<Camera>('POST', '/camera/create', {
          houseId,
          name,
          code: name,
          vendor: 'dahua',
          streamUrl,
        })
      ).data.id;
    const live = await make('Relay live', `http://127.0.0.1:${port}/cam/index.m3u8`);
    const dead = await make('Relay dead', `http://127.0.0.1:${await freePort()}/cam/index.m3u8`);
    const token = await t.signIn('farm');
    const get = (url: string, locale = 'en') =>
      t.app.inject({ url: `/api${url}`, headers: { authorization: token, locale } });
    const ok = await get(`/camera/play/${live}/index.m3u8`);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('#EXTM3U\n');
    const refused = await get(`/camera/play/${dead}/index.m3u8`, 'zh');
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ msg: string }>().msg).toBe('摄像头的媒体网关无响应。');
    expect((await get(`/camera/play/${live}/..%2F..%2Fetc`)).statusCode).toBe(400);
    await new Promise<void>((r) => served.close(() => r()));
  });
});
