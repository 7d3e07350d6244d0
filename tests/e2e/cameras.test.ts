import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { freePort } from '../helpers/processes';
import { openWall, pixelOf } from './wallHelpers';
import { confirmSave, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
let media: Server;
let streamDir: string;
let houseId = 0;
/** A house of the same farm without cameras. */
let bareHouseId = 0;
/** A house whose cameras' gateway answers without a stream: the "No video" reasons. */
let reasonsHouseId = 0;
/** House 4 of the same farm, whose camera's gateway is slow to start its stream. */
let slowHouseId = 0;
const SHOTS = process.env.SHOTS_DIR;
/** How long the slow gateway takes for its playlist, and again for the stream's first piece. */
const SLOW_START_MS = 4_000;

/**
 * A short HLS test stream made by Debian's ffmpeg now (a test pattern with a running clock),
 * served by a plain HTTP server like a farm's media gateway would.
 */
async function makeStream(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'roost-hls-'));
  await promisify(execFile)('ffmpeg', [
    ...['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25', '-t', '30'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-preset', 'ultrafast', '-g', '25'],
    ...['-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', '-hls_playlist_type', 'vod'],
    path.join(dir, 'index.m3u8'),
  ]);
  return dir;
}

beforeAll(async () => {
  streamDir = await makeStream();
  media = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const name = path.basename(pathname);
    // A stream this gateway keeps behind a login.
    if (name === 'locked.m3u8') return void res.writeHead(401).end();
    const type = name.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t';
    const answer = () => {
      const stream = createReadStream(path.join(streamDir, name));
      stream.on('error', () => res.writeHead(404).end());
      stream.once('open', () => res.writeHead(200, { 'content-type': type }));
      stream.pipe(res);
    };
    // A gateway slow to start a stream: its playlist and first piece take SLOW_START_MS each,
    // within the relay's 5 s for an answer, so no frame can come before the tile says "No video" (NO_VIDEO_MS, 6 s).
    const slow = pathname.startsWith('/slow/') && (type !== 'video/mp2t' || name === 'index0.ts');
    setTimeout(answer, slow ? SLOW_START_MS : 0);
  });
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', () => r()));
  [server, browser] = await Promise.all([
    startServer({
      ROOST_SIMULATOR: 'off',
      // The media gateway is on this machine: loopback is fetched only when allowed explicitly.
      ROOST_MEDIA_ALLOW: '127.0.0.1',
    }),
    launchBrowser(),
  ]);
  const [row] = await server.roost.database.query<{ id: number }>(
    `select h.id from houses h join farms f on f.id = h.farm_id
     where f.name = 'Weifang Broiler Farm' and h.name = 'House 1'`,
  );
  houseId = row!.id;
  const [bare] = await server.roost.database.query<{ id: number }>(
    `select h.id from houses h join farms f on f.id = h.farm_id
     where f.name = 'Weifang Broiler Farm' and h.name = 'House 2'`,
  );
  bareHouseId = bare!.id;
  const [third] = await server.roost.database.query<{ id: number }>(
    `select h.id from houses h join farms f on f.id = h.farm_id
     where f.name = 'Weifang Broiler Farm' and h.name = 'House 3'`,
  );
  reasonsHouseId = third!.id;
  const [fourth] = await server.roost.database.query<{ id: number }>(
    `select h.id from houses h join farms f on f.id = h.farm_id
     where f.name = 'Weifang Broiler Farm' and h.name = 'House 4'`,
  );
  slowHouseId = fourth!.id;
  const login = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'farm', password: DEMO_PASSWORD, codeId: '', code: 'x' }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const port = (media.address() as AddressInfo).port;
  const dead = await freePort();
  for (const [name, code, streamUrl] of [
    ['Gate camera', 'GATE', `http://127.0.0.1:${port}/gate/index.m3u8`],
    ['Dead camera', 'DEAD', `http://127.0.0.1:${dead}/dead/index.m3u8`],
  ] as const)
    await addCamera(houseId, name, code, streamUrl);
  // In a house of their own (the other tests count House 1's cameras): the gateway answers, but
  // has no stream at this path (404) or refuses to give it (401).
  await addCamera(
    reasonsHouseId,
    'Wrong path camera',
    'WRONG',
    `http://127.0.0.1:${port}/gate/missing.m3u8`,
  );
  await addCamera(slowHouseId, 'Slow camera', 'SLOW', `http://127.0.0.1:${port}/slow/index.m3u8`);
  await addCamera(
    reasonsHouseId,
    'Locked camera',
    'LOCKED',
    `http://127.0.0.1:${port}/gate/locked.m3u8`,
  );
  async function addCamera(house: number, name: string, code: string, streamUrl: string) {
    const res = await fetch(`${server.url}/api/camera/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        houseId: house,
        name,
        code,
        vendor: 'hikvision',
        userName: 'admin',
        password: 'cam-secret-1',
        streamUrl,
      }),
    });
    expect(res.status).toBe(200);
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((r) => (media ? media.close(() => r()) : r()));
  if (streamDir) await rm(streamDir, { recursive: true, force: true });
});

const tile = (page: Page, name: string) =>
  page.getByTestId('camera-tile').filter({ hasText: name });

/** A string only hls.js holds (its event name), wherever the bundler puts the library. */
const HLS_MARK = 'hlsManifestParsed';
/** The scripts a page fetches, with their sizes: what a visit costs the user's connection. */
function scriptsOf(page: Page) {
  const scripts: { url: string; raw: number; gzip: number; hls: boolean }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    void response.body().then(
      (body) =>
        scripts.push({
          url: response.url(),
          raw: body.length,
          gzip: gzipSync(body).length,
          hls: body.includes(HLS_MARK),
        }),
      () => undefined,
    );
  });
  return scripts;
}
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

it('the house monitor fetches the video player (hls.js) only when a camera is played', async () => {
  const { page, context } = await openSignedIn(browser, server.url, 'farm');
  const scripts = scriptsOf(page);
  await page.goto(`${server.url}/shack/status/monitor?houseId=${bareHouseId}`);
  // Idle network: the camera list has come (and no player was fetched after it).
  await page.waitForLoadState('networkidle');
  expect(await page.getByTestId('camera-grid').count()).toBe(0);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => s.hls).map((s) => s.url)).toEqual([]);
  const sum = (key: 'raw' | 'gzip') => scripts.reduce((total, s) => total + s[key], 0);
  // The figure for the report: the JS a first visit of a monitor without cameras transfers.
  process.stdout.write(
    `monitor without cameras: ${scripts.length} scripts, ${kb(sum('raw'))} kB raw, ${kb(sum('gzip'))} kB gzip\n`,
  );

  await page.goto(`${server.url}/shack/status/monitor?houseId=${houseId}`);
  await expect
    .poll(() => tile(page, 'Gate camera').getAttribute('data-state'), { timeout: 30_000 })
    .toBe('playing');
  expect(scripts.some((s) => s.hls)).toBe(true);
  await context.close();
});

it('the house monitor plays a camera stream (video time advances) and shows "No video" with the reason for a dead address', async () => {
  const { page, context } = await openSignedIn(browser, server.url, 'farm');
  await page.goto(`${server.url}/shack/status/monitor?houseId=${houseId}`);
  const live = tile(page, 'Gate camera');
  await expect.poll(() => live.getAttribute('data-state'), { timeout: 30_000 }).toBe('playing');
  const video = live.getByTestId('camera-video');
  const timeOf = () => video.evaluate((v: HTMLVideoElement) => v.currentTime);
  const first = await timeOf();
  await expect.poll(timeOf, { timeout: 15_000 }).toBeGreaterThan(first + 1);

  const dead = tile(page, 'Dead camera');
  await expect.poll(() => dead.getAttribute('data-state'), { timeout: 10_000 }).toBe('noVideo');
  await expect.poll(() => dead.textContent()).toContain('No video');
  await expect
    .poll(() => dead.getByTestId('camera-reason').textContent())
    .toBe('The media gateway does not answer');
  if (SHOTS)
    await page.getByTestId('camera-grid').screenshot({ path: `${SHOTS}/monitor-en-1440.png` });
  await context.close();
});

it('"No video" says what the media gateway answered: no such stream (check the path) or refused, not "does not answer"; in English and Chinese', async () => {
  const reasons = {
    en: {
      'Wrong path camera': "The media gateway has no such stream: check the camera's stream path",
      'Locked camera': 'The media gateway refused to give the stream: check its access settings',
    },
    zh: {
      'Wrong path camera': '媒体网关上没有该视频流：请检查摄像头的视频流路径',
      'Locked camera': '媒体网关拒绝提供该视频流：请检查其访问设置',
    },
  } as const;
  for (const language of ['en', 'zh'] as const) {
    const { page, context } = await openSignedIn(browser, server.url, 'farm', {
      language,
      viewport: language === 'en' ? { width: 1440, height: 900 } : { width: 390, height: 844 },
    });
    await page.goto(`${server.url}/shack/status/monitor?houseId=${reasonsHouseId}`);
    for (const [name, reason] of Object.entries(reasons[language])) {
      const cam = tile(page, name);
      await expect.poll(() => cam.getAttribute('data-state'), { timeout: 10_000 }).toBe('noVideo');
      await expect.poll(() => cam.getByTestId('camera-reason').textContent()).toBe(reason);
    }
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/reasons-${language}.png`, fullPage: true });
    await context.close();
  }
});

it('a stream slow to start says "No video" meanwhile, then plays without a reload', async () => {
  // No frame before 8 s (SLOW_START_MS twice); "No video" comes at 6 s (NO_VIDEO_MS in
  // src/screens/cameras/CameraGrid.tsx).
  const { page, context } = await openSignedIn(browser, server.url, 'farm', {
    viewport: { width: 1440, height: 900 },
  });
  await page.goto(`${server.url}/shack/status/monitor?houseId=${slowHouseId}`);
  const slow = tile(page, 'Slow camera');
  await expect.poll(() => slow.getAttribute('data-state'), { timeout: 15_000 }).toBe('noVideo');
  // An unattended wall or monitor must not keep "No video" for a stream that came late.
  await expect.poll(() => slow.getAttribute('data-state'), { timeout: 30_000 }).toBe('playing');
  await context.close();
});

it('in Chinese on a phone: 无视频 for the dead address, the live one plays', async () => {
  const { page, context } = await openSignedIn(browser, server.url, 'farm', {
    language: 'zh',
    viewport: { width: 390, height: 844 },
  });
  await page.goto(`${server.url}/shack/status/monitor?houseId=${houseId}`);
  const dead = tile(page, 'Dead camera');
  await expect.poll(() => dead.getAttribute('data-state'), { timeout: 10_000 }).toBe('noVideo');
  await expect.poll(() => dead.textContent()).toContain('无视频');
  await expect
    .poll(() => tile(page, 'Gate camera').getAttribute('data-state'), { timeout: 30_000 })
    .toBe('playing');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/monitor-zh-390.png`, fullPage: true });
  await context.close();
});

it('Shack Manage: a camera is added in the house Cameras tab, a second one with the same name is refused with "Name existed", the password never shows, delete says how many are left', async () => {
  const { page, context } = await openSignedIn(browser, server.url, 'farm');
  await page.goto(`${server.url}/shack/manage`);
  await page.getByTestId(`manage-open-${houseId}`).click();
  await page.getByRole('tab', { name: 'Cameras' }).click();
  await expect.poll(() => page.getByTestId('camera-row').count()).toBe(2);
  const add = async (name: string) => {
    await page.getByTestId('camera-add').click();
    await page.getByTestId('camera-name').fill(name);
    await page.getByTestId('camera-code').fill('C9');
    await page.getByTestId('camera-password').fill('never-shown-991');
    await page.getByTestId('camera-save').click();
    await confirmSave(page);
  };
  await add('Feed camera');
  await expect.poll(() => page.getByTestId('camera-row').count()).toBe(3);
  await add('Feed camera');
  await expect
    .poll(() => page.locator('.bp6-toast').allInnerTexts())
    .toEqual(expect.arrayContaining([expect.stringContaining('Name existed')]));
  await page.getByRole('button', { name: 'Cancel' }).click();
  expect(await page.content()).not.toContain('never-shown-991');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/manage-cameras-en-1440.png` });
  await page.getByRole('button', { name: 'Delete Feed camera' }).click();
  expect(await page.getByTestId('confirm-delete').innerText()).toContain('2 will be left');
  await context.close();
});

it(
  "the wall's farm drill-down shows the farm's cameras: the live one plays, the dead one says why",
  { timeout: 300_000 },
  async () => {
    const { page, context } = await openSignedIn(browser, server.url, 'admin', {
      language: 'zh',
      viewport: { width: 1440, height: 900 },
    });
    const [farm] = await server.roost.database.query<{
      id: number;
      name: string;
      longitude: number;
      latitude: number;
    }>(`select id, name, longitude, latitude from farms where name = 'Weifang Broiler Farm'`);
    await openWall(page, server.url, '0');
    // No farm chosen, no camera: a wall does not open streams nobody asked for.
    expect(await page.getByTestId('camera-tile').count()).toBe(0);
    const point = await pixelOf(page, [farm!.longitude, farm!.latitude]);
    await page.mouse.click(point.x, point.y);
    await expect.poll(() => page.getByTestId('drill-title').textContent()).toBe(farm!.name);
    const drill = page.getByTestId('wall-drill');
    // The panel is drawn above deck.gl's overlay canvas (which sits in MapLibre's control corner
    // with its own z-index), so no map outline crosses its rows and video.
    const layers = await page.evaluate(() => {
      const stackOf = (start: Element | null) => {
        for (let e = start; e; e = e.parentElement) {
          const z = getComputedStyle(e).zIndex;
          if (z !== 'auto') return Number(z);
        }
        return 0;
      };
      const deck = [...document.querySelectorAll('canvas')].find(
        (c) => !c.classList.contains('maplibregl-canvas'),
      );
      return {
        deck: stackOf(deck ?? null),
        drill: stackOf(document.querySelector('[data-testid="wall-drill"]')),
      };
    });
    expect(layers.drill).toBeGreaterThan(layers.deck);
    const live = drill.getByTestId('camera-tile').filter({ hasText: 'Gate camera' });
    await expect.poll(() => live.getAttribute('data-state'), { timeout: 30_000 }).toBe('playing');
    const video = live.getByTestId('camera-video');
    const timeOf = () => video.evaluate((v: HTMLVideoElement) => v.currentTime);
    const first = await timeOf();
    await expect.poll(timeOf, { timeout: 15_000 }).toBeGreaterThan(first + 1);
    const dead = drill.getByTestId('camera-tile').filter({ hasText: 'Dead camera' });
    await expect.poll(() => dead.getAttribute('data-state'), { timeout: 10_000 }).toBe('noVideo');
    await expect.poll(() => dead.textContent()).toContain('无视频');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/wall-drill-cameras-zh-1440.png` });
    await context.close();
  },
);

it('on a phone the house Cameras tab fits the screen; in Chinese at 1440 px the monitor plays', async () => {
  const phone = await openSignedIn(browser, server.url, 'farm', {
    viewport: { width: 390, height: 844 },
  });
  await phone.page.goto(`${server.url}/shack/manage`);
  await phone.page.getByTestId(`manage-open-${houseId}`).click();
  await phone.page.getByRole('tab', { name: 'Cameras' }).click();
  await phone.page.getByTestId('camera-row').first().waitFor();
  if (SHOTS)
    await phone.page.screenshot({ path: `${SHOTS}/manage-cameras-en-390.png`, fullPage: true });
  // Nothing of the page scrolls sideways: the table scrolls inside its own region if at all.
  expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    390,
  );
  await expect.poll(() => phone.page.getByTestId('camera-add').isVisible()).toBe(true);
  await phone.context.close();
  const wide = await openSignedIn(browser, server.url, 'farm', { language: 'zh' });
  await wide.page.goto(`${server.url}/shack/status/monitor?houseId=${houseId}`);
  await expect
    .poll(() => tile(wide.page, 'Gate camera').getAttribute('data-state'), { timeout: 30_000 })
    .toBe('playing');
  if (SHOTS) await wide.page.screenshot({ path: `${SHOTS}/monitor-zh-1440.png`, fullPage: true });
  await wide.context.close();
});

it('a camera list that failed is asked again: the cameras come without a reload', async () => {
  const { page, context } = await openSignedIn(browser, server.url, 'farm');
  // The first list is cut off on its way, as a server restarting or a dropped line would.
  let asked = 0;
  await page.route('**/api/camera/list*', (route) =>
    asked++ === 0 ? route.abort('connectionreset') : route.continue(),
  );
  await page.goto(`${server.url}/shack/status/monitor?houseId=${houseId}`);
  await expect
    .poll(() => tile(page, 'Gate camera').getAttribute('data-state'), { timeout: 30_000 })
    .toBe('playing');
  expect(asked).toBeGreaterThanOrEqual(2);
  await context.close();
});
