import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import mqtt, { type MqttClient } from 'mqtt';
import { hashToken } from '../../server/auth/tokens';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { disableNagle } from '../../server/mqtt/noDelay';
import { freePort } from '../helpers/processes';
import { LIVE_WAIT, launchBrowser, signIn, startServer, type TestServer } from './harness';
import {
  collectErrors,
  colourAt,
  farmState,
  MAP_DRAWN_TIMEOUT_MS,
  openWall,
  pixelOf,
  regionState,
} from './wallHelpers';

const SHOTS_DIR = '.tmp/wall-shots';
const WALL_VIEWPORT = { width: 1920, height: 1080 };

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
const clients: MqttClient[] = [];

interface FarmRow {
  id: number;
  name: string;
  province_adcode: string;
  longitude: number;
  latitude: number;
}

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({ MQTT_PORT: String(mqttPort), ROOST_SIMULATOR: 'off' }),
    launchBrowser(),
  ]);
  mkdirSync(SHOTS_DIR, { recursive: true });
});
afterAll(async () => {
  for (const client of clients) client.end(true);
  await browser?.close();
  await server?.stop();
});

async function open(language: 'en' | 'zh' = 'en'): Promise<Page> {
  context = await browser.newContext({
    viewport: WALL_VIEWPORT,
    locale: language === 'zh' ? 'zh-CN' : 'en-US',
  });
  page = await context.newPage();
  errors = collectErrors(page);
  await signIn(page, server.url, 'admin');
  return page;
}

afterEach(async () => {
  await context?.close();
  expect(errors).toEqual([]);
});

/** The demo farm with the fewest houses, and its gateways, each given a token and connected. */
async function connectFarm(): Promise<{
  farm: FarmRow;
  gateways: Array<{ networkId: string; houseId: number; client: MqttClient }>;
}> {
  const { database } = server.roost;
  const [farm] = await database.query<FarmRow>(
    `select f.id, f.name, f.province_adcode, f.longitude, f.latitude from farms f
     join houses h on h.farm_id = f.id where f.level = 'farm'
     group by f.id order by count(h.id), f.id limit 1`,
  );
  const rows = await database.query<{ id: number; network_id: string; house_id: number }>(
    `select g.id, g.network_id, g.house_id from gateways g join houses h on h.id = g.house_id where h.farm_id = $1`,
    [farm!.id],
  );
  // The alarm rules wait a minute before raising (a passing spike is no alarm) and two before
  // clearing (a passing dip is no recovery): not in these tests.
  await database.query(
    `insert into alarm_limits (house_id, limits) select house_id, '{"minDurationSeconds":0,"clearHoldSeconds":0}'::jsonb from gateways where id = any($1::int[])
     on conflict (house_id) do update set limits = excluded.limits`,
    [rows.map((r) => r.id)],
  );
  const gateways = [];
  for (const row of rows) {
    const token = `wall-token-${row.id}`;
    await database.query(`update gateways set token_hash = $1 where id = $2`, [
      hashToken(token),
      row.id,
    ]);
    server.roost.ingest.directory.forget(row.network_id);
    const client = mqtt.connect(`mqtt://127.0.0.1:${server.roost.mqttPort}`, {
      username: row.network_id,
      password: token,
      clientId: `wall-${row.network_id}`,
      reconnectPeriod: 0,
    });
    disableNagle(client);
    clients.push(client);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    gateways.push({ networkId: row.network_id, houseId: row.house_id, client });
  }
  return { farm: farm!, gateways };
}

const publish = (client: MqttClient, networkId: string, metrics: Record<string, number>) =>
  client.publishAsync(
    `roost/v1/${networkId}/telemetry`,
    JSON.stringify({ ts: Date.now(), metrics, mode: 1 }),
    { qos: 1 },
  );

/** The farm's gateways connect once for the whole file: a second connection would end the first. */
let connected: ReturnType<typeof connectFarm> | null = null;
const farmOnce = () => (connected ??= connectFarm());

/** A token of a demo user through the API, for what the test does outside the wall (acknowledge). */
async function apiToken(username: string): Promise<string> {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD, codeId: '', code: 'x' }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** Where a province's name would sit: a point of it away from its farm's point. */
function centroidOf(adcode: string): [number, number] {
  const provinces = JSON.parse(readFileSync('public/geo/china-provinces.json', 'utf8')) as {
    features: Array<{ properties: { adcode: string; centroid: [number, number] } }>;
  };
  return provinces.features.find((p) => p.properties.adcode === adcode)!.properties.centroid;
}

const pulsingOf = (farmId: number) =>
  page
    .locator(`[data-testid="wall-states"] li[data-farm-id="${farmId}"]`)
    .getAttribute('data-pulsing');

describe('alarm overview wall', () => {
  it(
    'draws China with the provinces and every farm; readings turn a farm and its province, an alarm turns them red and ticks',
    { timeout: 300_000 },
    async () => {
      const { farm, gateways } = await farmOnce();
      await open();
      await openWall(page, server.url);
      expect(await page.getByTestId('wall-map').getAttribute('data-map-type')).toBe('1');
      expect(await page.locator('[data-testid="wall-states"] li[data-farm-id]').count()).toBe(7);
      expect(await page.getByTestId('wall-count-total').getByTestId('value').textContent()).toBe(
        '42',
      );
      expect(await farmState(page, farm.id)).toBe('offline');

      // Every house of the farm reports: the farm and its province turn normal.
      await Promise.all(
        gateways.map((g) => publish(g.client, g.networkId, { temperature: 25, humidity: 60 })),
      );
      await expect.poll(() => farmState(page, farm.id), LIVE_WAIT).toBe('normal');
      await expect.poll(() => regionState(page, farm.province_adcode), LIVE_WAIT).toBe('normal');
      // On the map the province is not red (normal is a faint green over the land).
      const redOf = async () => {
        const { r, g } = await colourAt(page, centroidOf(farm.province_adcode));
        return r - g;
      };
      await expect.poll(redOf, LIVE_WAIT).toBeLessThan(0);
      // The farm's province drilled down: its row in the side panel follows the live state too.
      const centroid = await pixelOf(page, centroidOf(farm.province_adcode));
      await page.mouse.click(centroid.x, centroid.y);
      const row = page.locator(`[data-testid="drill-farm"][data-farm-id="${farm.id}"]`);
      await expect.poll(() => row.getAttribute('data-state'), LIVE_WAIT).toBe('normal');

      // An NH3 reading far above its limit: the alarm engine raises an alarm, it reaches the wall
      // as the house's live alarm count.
      const first = gateways[0]!;
      await publish(first.client, first.networkId, { nh3: 80 });
      await expect.poll(() => farmState(page, farm.id), LIVE_WAIT).toBe('alarm');
      await expect.poll(() => row.getAttribute('data-state'), LIVE_WAIT).toBe('alarm');
      await page.getByTestId('wall-whole-map').click();
      await page.getByTestId('wall-drill').waitFor({ state: 'detached' });
      await expect.poll(() => regionState(page, farm.province_adcode), LIVE_WAIT).toBe('alarm');
      // The province is red on the map, to be seen from across the room.
      await expect.poll(redOf, LIVE_WAIT).toBeGreaterThan(40);
      await expect
        .poll(
          () => page.getByTestId('wall-count-alarm').getByTestId('value').textContent(),
          LIVE_WAIT,
        )
        .toBe('1');
      const tick = page.locator(
        `[data-testid="wall-ticker"] li[data-kind="raised"][data-house-id="${first.houseId}"]`,
      );
      await tick.waitFor({ timeout: LIVE_WAIT.timeout, state: 'attached' });
      expect(await tick.isVisible()).toBe(true);
      // Nobody acknowledged it: the point pulses.
      await expect
        .poll(() =>
          page
            .locator(`[data-testid="wall-states"] li[data-farm-id="${farm.id}"]`)
            .getAttribute('data-pulsing'),
        )
        .toBe('true');
      const ring = page.locator(`.roost-wall__pulse[data-farm-id="${farm.id}"]`);
      await ring.waitFor();
      // Centred on its farm's point after the camera flew back from the drilled province (the
      // alarm came in while drilled): the rings follow the camera. The beat scales it about
      // its centre, so its box's centre stays on the farm.
      await expect
        .poll(async () => {
          const [box, at] = await Promise.all([
            ring.boundingBox(),
            pixelOf(page, [farm.longitude, farm.latitude]),
          ]);
          if (!box) return Infinity;
          return Math.hypot(box.x + box.width / 2 - at.x, box.y + box.height / 2 - at.y);
        }, LIVE_WAIT)
        .toBeLessThan(2);
      // It beats, without an event per beat for the page to dispatch (WallMap.tsx, PulseRing).
      const beats = await page.evaluate(`new Promise((resolve) => {
        const ring = document.querySelector('.roost-wall__pulse[data-farm-id="${farm.id}"]');
        let events = 0;
        document.addEventListener('animationiteration', () => (events += 1), true);
        setTimeout(() => resolve({ events, states: ring.getAnimations().map((a) => a.playState) }), 1500);
      })`);
      expect(beats).toEqual({ events: 0, states: ['running'] });
      await page.screenshot({ path: `${SHOTS_DIR}/wall-china-en-alarm.png` });
    },
  );

  it(
    'acknowledging an alarm stops its pulse; the alarm clearing turns the farm point and its province back and adds a ticker line',
    { timeout: 300_000 },
    async () => {
      const { farm, gateways } = await farmOnce();
      // In Chinese: the ticker's lines are written outside React, in the screen's language.
      await open('zh');
      await openWall(page, server.url, '0');
      const first = gateways[0]!;
      // Whatever ran before: every house reports, and one reads NH3 far above its limit.
      await Promise.all(
        gateways.map((g) => publish(g.client, g.networkId, { temperature: 25, humidity: 60 })),
      );
      await publish(first.client, first.networkId, { nh3: 80 });
      await expect.poll(() => farmState(page, farm.id), LIVE_WAIT).toBe('alarm');
      await expect.poll(() => regionState(page, farm.province_adcode), LIVE_WAIT).toBe('alarm');
      const [alarm] = await server.roost.database.query<{ id: number; state: string }>(
        `select id, state from alarms where house_id = $1 and state <> 'cleared' order by id desc limit 1`,
        [first.houseId],
      );
      if (alarm!.state === 'active') {
        await expect.poll(() => pulsingOf(farm.id), LIVE_WAIT).toBe('true');
        // An operator acknowledges it in the console: the point stops pulsing, still red (open).
        const res = await fetch(`${server.url}/api/alarm/acknowledge`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${await apiToken('admin')}`,
          },
          body: JSON.stringify({ id: alarm!.id }),
        });
        expect(res.status).toBe(200);
      }
      await expect.poll(() => pulsingOf(farm.id), LIVE_WAIT).toBe('false');
      await page.locator(`.roost-wall__pulse[data-farm-id="${farm.id}"]`).waitFor({
        state: 'detached',
        timeout: LIVE_WAIT.timeout,
      });
      expect(await farmState(page, farm.id)).toBe('alarm');

      // The NH3 falls back: the alarm engine clears the alarm, the wall turns back.
      await publish(first.client, first.networkId, { nh3: 5 });
      await expect.poll(() => farmState(page, farm.id), LIVE_WAIT).toBe('normal');
      await expect.poll(() => regionState(page, farm.province_adcode), LIVE_WAIT).toBe('normal');
      await expect
        .poll(
          () => page.getByTestId('wall-count-alarm').getByTestId('value').textContent(),
          LIVE_WAIT,
        )
        .toBe('0');
      const tick = page.locator(
        `[data-testid="wall-ticker"] li[data-kind="cleared"][data-house-id="${first.houseId}"]`,
      );
      await tick.waitFor({ timeout: LIVE_WAIT.timeout, state: 'attached' });
      expect(await tick.isVisible()).toBe(true);
      expect(await tick.textContent()).toMatch(/^\d{2}:\d{2}:\d{2} .+ 解除$/);
      await page.screenshot({ path: `${SHOTS_DIR}/wall-china-zh-ticker.png` });
    },
  );

  it(
    'drills down province → farm → house and opens that house monitor; the whole map comes back in one click',
    { timeout: 300_000 },
    async () => {
      const farms = await server.roost.database.query<FarmRow>(
        `select id, name, province_adcode, longitude, latitude from farms where level = 'farm' order by id`,
      );
      await open();
      await openWall(page, server.url);
      // A point of a farm's province away from the farm itself: the province's centroid, for the
      // farm whose point lies furthest from it.
      const provinces = JSON.parse(readFileSync('public/geo/china-provinces.json', 'utf8')) as {
        features: Array<{ properties: { adcode: string; centroid: [number, number] } }>;
      };
      const centroidOf = (f: FarmRow) =>
        provinces.features.find((p) => p.properties.adcode === f.province_adcode)!.properties
          .centroid;
      const distance = (f: FarmRow) =>
        Math.hypot(centroidOf(f)[0] - f.longitude, centroidOf(f)[1] - f.latitude);
      const farm = farms.sort((a, b) => distance(b) - distance(a))[0];
      const at = await pixelOf(page, centroidOf(farm!));
      await page.mouse.click(at.x, at.y);
      await page.getByTestId('wall-drill').waitFor();
      await page.locator(`[data-testid="drill-farm"][data-farm-id="${farm!.id}"]`).click();
      await expect.poll(() => page.getByTestId('drill-title').textContent()).toBe(farm!.name);
      await page.getByTestId('wall-whole-map').click();
      await page.getByTestId('wall-drill').waitFor({ state: 'detached' });

      // The farm's point on the map opens the farm directly.
      const point = await pixelOf(page, [farm!.longitude, farm!.latitude]);
      await page.mouse.click(point.x, point.y);
      await expect.poll(() => page.getByTestId('drill-title').textContent()).toBe(farm!.name);
      const house = page.getByTestId('drill-house').first();
      const houseId = await house.getAttribute('data-house-id');
      await house.click();
      await page.waitForURL((u) => u.pathname === '/shack/status/monitor');
      expect(new URL(page.url()).searchParams.get('houseId')).toBe(houseId);
    },
  );

  it(
    'speaks English with language=1 and Chinese with language=0; screenshots China and World at 1920×1080',
    { timeout: 600_000 },
    async () => {
      const farms = await server.roost.database.query<{ id: number; name: string }>(
        `select id, name from farms where level = 'farm' order by id`,
      );
      for (const [language, locale, title, states] of [
        ['1', 'en', 'Roost alarm overview', /: (Alarm|Offline|Normal)$/],
        ['0', 'zh', 'Roost 报警总览', /: (报警|离线|正常)$/],
      ] as const) {
        await open(locale);
        await openWall(page, server.url, language);
        expect(await page.locator('.roost-wall__title').textContent()).toBe(title);
        // The screen reader's farm lines name each farm and its state in the screen's language,
        // one line per farm (written outside React, FarmLines).
        const lines = await page
          .locator('[data-testid="wall-states"] li[data-farm-id]')
          .evaluateAll((items) =>
            items.map(
              (li) => [Number((li as HTMLElement).dataset.farmId), li.textContent ?? ''] as const,
            ),
          );
        expect(lines.map(([id]) => id).sort((a, b) => a - b)).toEqual(farms.map((f) => f.id));
        for (const [id, text] of lines) {
          const farm = farms.find((f) => f.id === id)!;
          expect(text.startsWith(`${farm.name}: `)).toBe(true);
          expect(text).toMatch(states);
        }
        // Nothing to scroll on a wall.
        expect(
          await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight),
        ).toBe(true);
        await page.screenshot({ path: `${SHOTS_DIR}/wall-china-${locale}.png` });
        await context.close();
        expect(errors).toEqual([]);
      }
      await server.roost.database.query(`update organizations set map_type = '2'`);
      try {
        for (const [language, locale] of [
          ['1', 'en'],
          ['0', 'zh'],
        ] as const) {
          await open(locale);
          await openWall(page, server.url, language);
          expect(await page.getByTestId('wall-map').getAttribute('data-map-type')).toBe('2');
          // The whole world is shown, not China (centred near longitude 5, not 104).
          const [longitude] = ((await page.getByTestId('wall-map').getAttribute('data-view')) ?? '')
            .split(',')
            .map(Number);
          expect(longitude).toBeLessThan(60);
          // Chinese farms count in China (ISO 156) on the World map.
          expect(await regionState(page, '156')).not.toBeNull();
          await page.screenshot({ path: `${SHOTS_DIR}/wall-world-${locale}.png` });
          await context.close();
          expect(errors).toEqual([]);
        }
      } finally {
        await server.roost.database.query(`update organizations set map_type = '1'`);
      }
    },
  );

  it(
    'embeds the screen in the console at /alarmOverview/index with the language and a fullscreen button',
    { timeout: 300_000 },
    async () => {
      await open();
      await page.goto(`${server.url}/alarmOverview/index`);
      const frame = page.getByTestId('wall-frame-frame');
      await frame.waitFor();
      expect(await frame.getAttribute('src')).toBe('/screenDatav/home?language=1');
      await page.getByTestId('wall-frame-fullscreen').waitFor();
      const inner = page.frameLocator('[data-testid="wall-frame-frame"]');
      await inner
        .locator('[data-testid="wall-map"][data-map-loaded="true"]')
        .waitFor({ timeout: MAP_DRAWN_TIMEOUT_MS });
      expect(await inner.locator('.roost-wall__title').textContent()).toBe('Roost alarm overview');
    },
  );

  it(
    'lists a drilled farm’s readings live; leaving the wall, the console has the readings the wall did not draw',
    { timeout: 300_000 },
    async () => {
      const { farm, gateways } = await farmOnce();
      const first = gateways[0]!;
      await Promise.all(
        gateways.map((g) => publish(g.client, g.networkId, { temperature: 25, nh3: 5 })),
      );
      await open();
      await openWall(page, server.url);
      await expect.poll(() => farmState(page, farm.id), LIVE_WAIT).toBe('normal');
      // The wall hears houses' readings only for the farm it drilled into (the rest: their state).
      await publish(first.client, first.networkId, { temperature: 26.5 });
      const point = await pixelOf(page, [farm.longitude, farm.latitude]);
      await page.mouse.click(point.x, point.y);
      const temperature = page
        .locator(`[data-testid="drill-house"][data-house-id="${first.houseId}"]`)
        .getByTestId('drill-temperature');
      await expect.poll(() => temperature.textContent(), LIVE_WAIT).toBe('26.5 ℃');
      await publish(first.client, first.networkId, { temperature: 27.5 });
      await expect.poll(() => temperature.textContent(), LIVE_WAIT).toBe('27.5 ℃');

      // Back to the whole map, a reading the wall does not draw comes with an alarm it does: once
      // the farm turns red, the reading has gone out too, without its temperature.
      await page.getByTestId('wall-whole-map').click();
      await page.getByTestId('wall-drill').waitFor({ state: 'detached' });
      await publish(first.client, first.networkId, { temperature: 28.5, nh3: 80 });
      await expect.poll(() => farmState(page, farm.id), LIVE_WAIT).toBe('alarm');
      // Into the console without a reload, as the router's own links go.
      await page.evaluate(() => {
        window.history.pushState(null, '', '/shack/status/overview');
        window.dispatchEvent(new PopStateEvent('popstate'));
      });
      const [house] = await server.roost.database.query<{ name: string }>(
        `select name from houses where id = $1`,
        [first.houseId],
      );
      await page.getByTestId('overview-search').fill(house!.name);
      const card = page.locator(`[data-testid="house-card"][data-house-id="${first.houseId}"]`);
      await expect
        .poll(() => card.getByTestId('card-temperature').first().textContent(), LIVE_WAIT)
        .toBe('28.5 ℃');
      await publish(first.client, first.networkId, { nh3: 5 });
    },
  );
});
