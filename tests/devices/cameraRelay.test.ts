import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtures, ROLES, type Fixtures, type Role } from '../admin/matrixFixtures';
import { signInAll } from '../admin/client';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { waitFor } from '../helpers/waitFor';
import { startMediaServer, type MediaServer } from './relayMedia';

type HouseKey = keyof Fixtures['house'];
const HOUSES: HouseKey[] = ['wf1', 'wf4', 'gc1', 'tl1', 'qy1'];
/** The demo's scopes (README "Demo sign-in"): the fixture houses each identity may see. */
const SEES: Record<Role, HouseKey[]> = {
  admin: HOUSES,
  company: ['wf1', 'wf4', 'gc1', 'tl1'],
  area: ['wf1', 'wf4', 'gc1'],
  farm: ['wf1', 'wf4'],
  shack: ['wf1'],
};

/** A camera in `houseId`, with its own address or (empty) played from ROOST_MEDIA_URL + code. */
async function camera(t: TestApp, houseId: number, code: string, streamUrl = '') {
  const [row] = await t.database.query<{ id: number }>(
    `insert into cameras (org_id, house_id, name, code, vendor, stream_url)
     select f.org_id, h.id, $2, $2, 'dahua', $3 from houses h join farms f on f.id = h.farm_id
     where h.id = $1 returning id`,
    [houseId, code, streamUrl],
  );
  return row!.id;
}

/** A request sent as written (no client normalises its `..` or `//`), on a listening app. */
function raw(port: string, path: string, token: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { authorization: token } });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const play = (t: TestApp, token: string, id: number, file: string) =>
  t.app.inject({ url: `/api/camera/play/${id}/${file}`, headers: { authorization: token } });

describe.each(testDatabaseTargets())('the camera relay on $name', (target) => {
  let media: MediaServer;
  let secret: MediaServer;
  let t: TestApp;
  let tokens: Record<Role, string>;
  let f: Fixtures;
  const cams = {} as Record<HouseKey, number>;
  let address: Promise<string> | null = null;
  const listening = () => (address ??= t.app.listen({ port: 0, host: '127.0.0.1' }));
  beforeAll(async () => {
    media = await startMediaServer();
    secret = await startMediaServer();
    // Only the administrator's media gateway is allowed (by definition); nothing else local.
    t = await createTestApp(target, { ROOST_MEDIA_URL: `${media.url}/media` });
    tokens = await signInAll(t);
    f = await makeFixtures(t);
    for (const house of HOUSES) cams[house] = await camera(t, f.house[house], `cam-${house}`);
  });
  afterAll(async () => {
    await t?.close();
    await media?.close();
    await secret?.close();
  });

  it('for every camera and every identity, only its own cameras play, each its own stream', async () => {
    for (const role of ROLES)
      for (const house of HOUSES) {
        const res = await play(t, tokens[role], cams[house], 'index.m3u8');
        if (SEES[role].includes(house)) {
          expect(res.statusCode, `${role} ${house}`).toBe(200);
          expect(res.body).toBe(`#EXTM3U /media/cam-${house} index.m3u8\n`);
        } else expect(res.statusCode, `${role} ${house}`).toBe(404);
      }
  });

  it('no crafted file part leaves the camera folder: 4xx, and the gateway never sees another path', async () => {
    const host = `127.0.0.1:${media.port}`;
    const crafted = [
      '/media/cam-qy1/index.m3u8',
      `/${host}/media/cam-qy1/index.m3u8`,
      `//${host}/media/cam-qy1/index.m3u8`,
      '../cam-qy1/index.m3u8',
      '..%2Fcam-qy1%2Findex.m3u8',
      '%2e%2e/cam-qy1/index.m3u8',
      '%2E%2E%2Fcam-qy1/index.m3u8',
      '.%2e/cam-qy1/index.m3u8',
      '%2fmedia%2fcam-qy1%2findex.m3u8',
      `%2F%2F${host}%2Fmedia/cam-qy1/index.m3u8`,
      '..\\cam-qy1\\index.m3u8',
      '%5c..%5ccam-qy1/index.m3u8',
      `\\\\${host}\\media\\cam-qy1\\index.m3u8`,
      `http://${host}/media/cam-qy1/index.m3u8`,
      'http:/media/cam-qy1/index.m3u8',
      'file:///etc/passwd',
      'data:text/plain,hello',
      'index.m3u8?/../../cam-qy1/index.m3u8',
      `index.m3u8?url=http://${host}/media/cam-qy1/index.m3u8`,
      'index.m3u8%23/../../cam-qy1/index.m3u8',
      'index.m3u8;/../../cam-qy1/index.m3u8',
      '..;/cam-qy1/index.m3u8',
      '%252e%252e/cam-qy1/index.m3u8',
      '%E2%80%A4%E2%80%A4/cam-qy1/index.m3u8',
      '%EF%BC%8E%EF%BC%8E/cam-qy1/index.m3u8',
      '%C0%AE%C0%AE/cam-qy1/index.m3u8',
      './../cam-qy1/index.m3u8',
      'x/../../cam-qy1/index.m3u8',
      `@${host}/media/cam-qy1/index.m3u8`,
      '%00/../cam-qy1/index.m3u8',
      'index.m3u8/..%2f..%2fcam-qy1',
      '%2e/%2e%2e/cam-qy1/index.m3u8',
    ];
    expect(crafted.length).toBeGreaterThanOrEqual(30);
    const { port } = new URL(await listening());
    media.seen.length = 0;
    for (const file of crafted) {
      const res = await raw(port, `/api/camera/play/${cams.wf1}/${file}`, tokens.shack);
      expect(res.status, file).toBeGreaterThanOrEqual(400);
      expect(res.status, file).toBeLessThan(500);
    }
    expect(media.seen.filter((p) => !p.startsWith('/media/cam-wf1/'))).toEqual([]);
    // The camera's own files still play, the playlist's segments and LL-HLS queries included.
    const own = await play(t, tokens.shack, cams.wf1, 'sub/seg-1.ts?_HLS_msn=3&_HLS_part=1');
    expect(own.statusCode).toBe(200);
    expect(media.seen.at(-1)).toBe('/media/cam-wf1/sub/seg-1.ts?_HLS_msn=3&_HLS_part=1');
  });

  it('loopback, link-local, metadata, unspecified and private addresses are refused unless allowed', async () => {
    const at = `127.0.0.1:${secret.port}`;
    const refused = [
      `http://${at}/secret/index.m3u8`,
      `http://localhost:${secret.port}/secret/index.m3u8`,
      `http://[::1]:${secret.port}/secret/index.m3u8`,
      `http://[::ffff:127.0.0.1]:${secret.port}/secret/index.m3u8`,
      `http://2130706433:${secret.port}/secret/index.m3u8`,
      `http://0.0.0.0:${secret.port}/secret/index.m3u8`,
      'http://169.254.169.254/latest/meta-data/index.m3u8',
      'http://[fd00:ec2::254]/latest/index.m3u8',
      'http://[fe80::1]/cam/index.m3u8',
      'http://10.0.0.1/cam/index.m3u8',
      'http://192.168.1.20/cam/index.m3u8',
      // The administrator's gateway is allowed by its origin, not every service of its host.
      `${media.url.replace(String(media.port), String(secret.port))}/secret/index.m3u8`,
    ];
    const { house } = f;
    for (const [i, url] of refused.entries()) {
      const id = await camera(t, house.wf1, `ssrf-${i}`, url);
      const res = await play(t, tokens.farm, id, 'index.m3u8');
      expect(res.statusCode, url).toBe(422);
      expect(res.json<{ msg: string }>().msg, url).toMatch(/does not allow/);
    }
    // A redirect from the allowed gateway to a forbidden address is refused too.
    media.redirect.to = `http://localhost:${secret.port}/secret/index.m3u8`;
    const hop = await camera(t, house.wf1, 'hop');
    const hopped = await play(t, tokens.farm, hop, 'hop.m3u8');
    expect(hopped.statusCode).toBe(422);
    expect(hopped.json<{ msg: string }>().msg).toMatch(/does not allow/);
    expect(secret.seen).toEqual([]);
    expect(media.seen).toContain('/media/hop/hop.m3u8');
  });

  it('an explicit ROOST_MEDIA_ALLOW lets the farm NVR be fetched, by range or by name', async () => {
    const allowed = await createTestApp(target, { ROOST_MEDIA_ALLOW: '127.0.0.0/8, localhost' });
    try {
      const farm = await allowed.signIn('farm');
      const { house } = await makeFixtures(allowed);
      for (const host of ['127.0.0.1', 'localhost']) {
        const id = await camera(
          allowed,
          house.wf1,
          `nvr-${host}`,
          `http://${host}:${secret.port}/nvr/index.m3u8`,
        );
        const res = await play(allowed, farm, id, 'index.m3u8');
        expect(res.statusCode, host).toBe(200);
        expect(res.body).toBe('#EXTM3U /nvr index.m3u8\n');
      }
      // A redirect is followed when its hop is allowed too.
      secret.redirect.to = '/nvr/index.m3u8';
      const hop = await camera(
        allowed,
        house.wf1,
        'nvr-hop',
        `http://127.0.0.1:${secret.port}/nvr/hop.m3u8`,
      );
      expect((await play(allowed, farm, hop, 'hop.m3u8')).body).toBe('#EXTM3U /nvr index.m3u8\n');
    } finally {
      await allowed.close();
    }
  });

  it("a camera cannot take another camera's code, nor name the media gateway in its own address", async () => {
    let copies = 0;
    const save = (method: 'POST' | 'PUT', url: string, body: object, locale = 'en') =>
      t.app.inject({
        method,
        url: `/api/camera/${url}`,
        payload: { name: `Copy ${copies++}`, vendor: 'dahua', houseId: f.house.wf1, ...body },
        headers: { authorization: tokens.shack, locale },
      });
    // The house manager of wf1 copies the code of a camera of another organisation (qy1) and of
    // another house of its own farm (wf4): its folder on the gateway, so its stream.
    for (const code of ['cam-qy1', 'cam-wf4']) {
      const en = await save('POST', 'create', { code });
      expect(en.statusCode, code).toBe(409);
      expect(en.json<{ msg: string }>().msg).toBe(
        "This camera code is already in use; codes name the camera's folder on the media gateway",
      );
      const zh = await save('POST', 'create', { code }, 'zh');
      expect(zh.statusCode, code).toBe(409);
      expect(zh.json<{ msg: string }>().msg).toBe(
        '该摄像头编码已被使用；编码即摄像头在媒体网关上的目录名',
      );
    }
    const renamed = await save('PUT', 'update', { id: cams.wf1, name: 'Renamed', code: 'cam-qy1' });
    expect(renamed.statusCode).toBe(409);
    // Its own address on the gateway's origin, however written, is refused at save.
    const own = await save('POST', 'create', { code: 'own-1' });
    expect(own.statusCode).toBe(200);
    const ownId = own.json<{ data: { id: number } }>().data.id;
    for (const streamUrl of [
      `${media.url}/media/cam-qy1/index.m3u8`,
      `HTTP://127.0.0.1:${media.port}/media/cam-qy1/index.m3u8`,
      `http://127.0.0.1.:${media.port}/other/cam-qy1/index.m3u8`,
    ]) {
      const made = await save('POST', 'create', { code: 'own-2', streamUrl });
      expect(made.statusCode, streamUrl).toBe(422);
      expect(made.json<{ msg: string }>().msg).toMatch(/may not be on the media gateway/);
      const edited = await save('PUT', 'update', { id: ownId, code: 'own-1', streamUrl });
      expect(edited.statusCode, streamUrl).toBe(422);
    }
    // A row saved before the rule (written directly) does not play, and the gateway sees nothing.
    const old = await camera(t, f.house.wf1, 'old-row', `${media.url}/media/cam-qy1/index.m3u8`);
    media.seen.length = 0;
    for (const file of ['index.m3u8', 'seg-1.ts']) {
      const res = await play(t, tokens.shack, old, file);
      expect(res.statusCode, file).toBe(422);
    }
    expect(media.seen).toEqual([]);
    // An own address elsewhere may not redirect there either.
    const allowed = await createTestApp(target, {
      ROOST_MEDIA_URL: `${media.url}/media`,
      ROOST_MEDIA_ALLOW: '127.0.0.1',
    });
    try {
      const { house } = await makeFixtures(allowed);
      secret.redirect.to = `${media.url}/media/cam-qy1/index.m3u8`;
      const hop = await camera(allowed, house.wf1, 'nvr-to-gw', `${secret.url}/nvr/hop.m3u8`);
      const res = await play(allowed, await allowed.signIn('farm'), hop, 'hop.m3u8');
      expect(res.statusCode).toBe(422);
      expect(secret.seen).toContain('/nvr/hop.m3u8');
      expect(media.seen).toEqual([]);
    } finally {
      await allowed.close();
    }
  }, 60_000);

  it('a slow gateway answers 422; a body that stalls after it began cuts the connection, never a 500', async () => {
    const slow = await play(t, tokens.farm, cams.wf1, 'slowhead.m3u8');
    expect(slow.statusCode).toBe(422);
    expect(slow.json<{ msg: string }>().msg).toMatch(/does not answer/);
    const { port } = new URL(await listening());
    const answer = await new Promise<{ status: number; bytes: number; cut: boolean }>((resolve) => {
      const req = httpRequest(
        {
          port,
          path: `/api/camera/play/${cams.wf1}/stall.ts`,
          headers: { authorization: tokens.farm },
        },
        (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => resolve({ status: res.statusCode!, bytes, cut: false }));
          res.on('error', () => resolve({ status: res.statusCode!, bytes, cut: true }));
        },
      );
      req.on('error', () => resolve({ status: 0, bytes: 0, cut: true }));
      req.end();
    });
    expect(answer).toEqual({ status: 200, bytes: 1000, cut: true });
  }, 20_000);

  it('says why there is no video: a stream the gateway does not have, one it refuses', async () => {
    const answer = async (file: string, locale: string) => {
      const res = await t.app.inject({
        url: `/api/camera/play/${cams.wf1}/${file}`,
        headers: { authorization: tokens.farm, locale },
      });
      return { status: res.statusCode, msg: res.json<{ msg: string }>().msg };
    };
    // The gateway answers 404: the stream path is wrong (or the camera is not sending).
    expect(await answer('missing.m3u8', 'en')).toEqual({
      status: 404,
      msg: "The media gateway has no such stream: check the camera's stream path (and that the camera is sending).",
    });
    expect((await answer('missing.m3u8', 'zh')).msg).toMatch(/^媒体网关上没有该视频流/);
    // The gateway wants a login the relay does not give: refused, not "does not answer".
    const locked = await answer('locked.m3u8', 'en');
    expect(locked.status).toBe(403);
    expect(locked.msg).toMatch(/^The media gateway refused to give this stream/);
    expect((await answer('locked.m3u8', 'zh')).msg).toMatch(/^媒体网关拒绝提供该视频流/);
    // A gateway that does not answer stays "does not answer" (the slow gateway's test).
  });

  it('a 500 MB upstream body is streamed under its cap (memory grows < 20 MB); a leaving client drops the upstream', async () => {
    const { port } = new URL(await listening());
    const path = `/api/camera/play/${cams.wf1}/big.ts`;
    const fetchBig = () =>
      new Promise<{ status: number; bytes: number; cut: boolean }>((resolve) => {
        const req = httpRequest({ port, path, headers: { authorization: tokens.farm } }, (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => resolve({ status: res.statusCode!, bytes, cut: false }));
          res.on('error', () => resolve({ status: res.statusCode!, bytes, cut: true }));
        });
        req.on('error', () => resolve({ status: 0, bytes: 0, cut: true }));
        req.end();
      });
    // Gateway, relay and client share this process: a first run lets V8 grow its young
    // generation for the chunks all three make; the second is what the relay itself keeps.
    await fetchBig();
    await waitFor(() => (media.streamed.closed ? true : undefined));
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const got = await fetchBig();
    clearInterval(sampler);
    const growthMb = (peak - before) / 1024 / 1024;
    console.log(
      `relay: 500 MB upstream, ${got.bytes} bytes relayed, RSS growth ${growthMb.toFixed(1)} MB`,
    );
    expect(got.status).toBe(200);
    expect(got.cut).toBe(true);
    expect(got.bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
    expect(growthMb).toBeLessThan(20);
    await waitFor(() => (media.streamed.closed ? true : undefined));
    expect(media.streamed.bytes).toBeLessThan(500 * 1024 * 1024);

    // Announced too big: refused before a byte is relayed.
    const declared = await play(t, tokens.farm, cams.wf1, 'declared.ts');
    expect(declared.statusCode).toBe(422);
    await waitFor(() => (media.streamed.closed ? true : undefined));

    // The client leaves after 1 MB: the upstream is closed, not read on to the cap.
    await new Promise<void>((resolve) => {
      const req = httpRequest({ port, path, headers: { authorization: tokens.farm } }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (bytes > 1024 * 1024) req.destroy();
        });
        res.on('error', () => resolve());
        res.on('close', () => resolve());
      });
      req.on('error', () => resolve());
      req.end();
    });
    await waitFor(() => (media.streamed.closed ? true : undefined));
    expect(media.streamed.bytes).toBeLessThan(16 * 1024 * 1024);
  }, 60_000);
});
