import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import mqtt, { type MqttClient } from 'mqtt';
import { hashToken } from '../../server/auth/tokens';
import { disableNagle } from '../../server/mqtt/noDelay';
import { freePort } from '../helpers/processes';
import { LIVE_WAIT, launchBrowser, signIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pageErrors: string[];
const clients: MqttClient[] = [];

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({ MQTT_PORT: String(mqttPort), ROOST_SIMULATOR: 'off' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  for (const client of clients) client.end(true);
  await browser?.close();
  await server?.stop();
});

async function open(viewport = { width: 1440, height: 900 }): Promise<Page> {
  context = await browser.newContext({ viewport, locale: 'en-US' });
  page = await context.newPage();
  pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      pageErrors.push(message.text());
  });
  return page;
}

afterEach(async () => {
  await context?.close();
  expect(pageErrors).toEqual([]);
});

interface GatewayRow {
  id: number;
  network_id: string;
  house_id: number;
  house_name: string;
}

/** A demo house's gateway with a known token, connected to the embedded broker. */
async function connectGateway(offset: number): Promise<{ row: GatewayRow; client: MqttClient }> {
  const { database } = server.roost;
  const [row] = await database.query<GatewayRow>(
    `select g.id, g.network_id, g.house_id, h.name as house_name
     from gateways g join houses h on h.id = g.house_id order by g.id offset $1 limit 1`,
    [offset],
  );
  if (!row) throw new Error('no demo gateway');
  const token = `test-token-${row.id}`;
  await database.query(`update gateways set token_hash = $1 where id = $2`, [
    hashToken(token),
    row.id,
  ]);
  server.roost.ingest.directory.forget(row.network_id);
  const client = mqtt.connect(`mqtt://127.0.0.1:${server.roost.mqttPort}`, {
    username: row.network_id,
    password: token,
    clientId: `e2e-${row.network_id}`,
    reconnectPeriod: 0,
  });
  disableNagle(client);
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  return { row, client };
}

async function publish(client: MqttClient, networkId: string, metrics: Record<string, number>) {
  await client.publishAsync(
    `roost/v1/${networkId}/telemetry`,
    JSON.stringify({ ts: Date.now(), metrics, mode: 1 }),
    { qos: 1 },
  );
}

const card = (houseId: number) =>
  page.locator(`[data-testid="house-card"][data-house-id="${houseId}"]`);
const indicator = () => page.getByTestId('live-indicator');
const count = async (key: string) => Number(await page.getByTestId(`count-${key}`).textContent());

async function openOverview(username = 'admin'): Promise<void> {
  await open();
  await signIn(page, server.url, username);
  await page.goto(`${server.url}/shack/status/overview`);
  await page.getByTestId('house-grid').waitFor();
  await expect.poll(() => indicator().getAttribute('data-state'), { timeout: 15_000 }).toBe('live');
}

describe('house overview, live', () => {
  it('a reading published over MQTT changes its card without a reload; a silent gateway turns offline', async () => {
    const { row, client } = await connectGateway(0);
    await openOverview();
    // Search brings the house into view whatever the grid's order.
    await page.getByTestId('overview-search').fill(row.house_name);
    const offlineBefore = await count('offline');

    await publish(client, row.network_id, { temperature: 27.3, temperature_target: 26 });
    await expect
      .poll(
        () => card(row.house_id).getByTestId('card-temperature').first().textContent(),
        LIVE_WAIT,
      )
      .toBe('27.3 ℃');
    await expect.poll(() => card(row.house_id).getAttribute('data-status')).toBe('normal');
    expect(await count('offline')).toBe(offlineBefore - 1);

    // The gateway goes silent: 3 × its interval later the server's sweep calls it offline.
    await server.roost.database.query(`update gateways set interval_seconds = 1 where id = $1`, [
      row.id,
    ]);
    server.roost.ingest.directory.forget(row.network_id);
    await expect
      .poll(() => card(row.house_id).getAttribute('data-status'), { timeout: 10_000 })
      .toBe('offline');
    await expect.poll(() => count('offline')).toBe(offlineBefore);
    await page.getByTestId('filter-offline').click();
    await card(row.house_id).waitFor();
    await server.roost.database.query(`update gateways set interval_seconds = 30 where id = $1`, [
      row.id,
    ]);
    server.roost.ingest.directory.forget(row.network_id);
  });

  it('killing the live connection shows polling, data still refreshes by polling, reconnecting resumes live', async () => {
    const { row, client } = await connectGateway(1);
    await openOverview();
    await page.getByTestId('overview-search').fill(row.house_name);

    // No more socket: every handshake is refused, and the open connections are cut.
    await context.route('**/socket.io/**', (route) => route.abort());
    for (const socket of server.roost.live.io.of('/').sockets.values()) socket.conn.close();
    await expect
      .poll(() => indicator().textContent(), { timeout: 15_000 })
      .toBe('live updates paused, polling every 30 s');

    await publish(client, row.network_id, { temperature: 31.1 });
    // The next poll (at most 30 s away) brings it.
    await expect
      .poll(() => card(row.house_id).getByTestId('card-temperature').first().textContent(), {
        timeout: 35_000,
        interval: 250,
      })
      .toBe('31.1 ℃');

    await context.unroute('**/socket.io/**');
    await expect
      .poll(() => indicator().getAttribute('data-state'), { timeout: 15_000 })
      .toBe('live');
    await publish(client, row.network_id, { temperature: 29.9 });
    await expect
      .poll(
        () => card(row.house_id).getByTestId('card-temperature').first().textContent(),
        LIVE_WAIT,
      )
      .toBe('29.9 ℃');
  });
});

describe('house overview, while it loads', () => {
  it('a reading stored while the first snapshot is on its way still reaches the card', async () => {
    const { row, client } = await connectGateway(2);
    await publish(client, row.network_id, { temperature: 20.5 });
    await open();
    await signIn(page, server.url, 'admin');
    // Every snapshot is read from the server at once but handed to the page only after a newer
    // reading was stored and sent live: the page must not drop that live change.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let read = 0;
    await page.route('**/api/overview/listOverview/**', async (route) => {
      const answer = await route.fetch();
      read += 1;
      await released;
      await route.fulfill({ response: answer });
    });
    await page.goto(`${server.url}/shack/status/overview`);
    // The snapshot the page's socket asks for once connected has been read on the server.
    await expect
      .poll(() => (server.roost.live.io.of('/').sockets.size > 0 ? read : 0), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await publish(client, row.network_id, { temperature: 24.7 });
    // The hub sends deltas four times a second: this one has left the server.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    release();
    await expect
      .poll(() => indicator().getAttribute('data-state'), { timeout: 15_000 })
      .toBe('live');
    await page.getByTestId('overview-search').fill(row.house_name);
    await expect
      .poll(
        () => card(row.house_id).getByTestId('card-temperature').first().textContent(),
        LIVE_WAIT,
      )
      .toBe('24.7 ℃');
  });
});

describe('house comparison, scope and screens', () => {
  beforeAll(async () => {
    const { database } = server.roost;
    // 24 hourly buckets for every house, straight into the rollup the comparison reads.
    await database.query(
      `insert into telemetry_hourly (house_id, bucket, readings, temperature_sum, temperature_n, temperature_min, temperature_max)
       select h.id, date_trunc('hour', now()) - g * interval '1 hour', 1, 20 + h.id % 7 + sin(g / 4.0), 1,
              20 + h.id % 7 + sin(g / 4.0), 20 + h.id % 7 + sin(g / 4.0)
       from houses h, generate_series(1, 24) g on conflict do nothing`,
    );
  });

  it('refuses a 7th house, draws 6 houses week/hour with their legend, and exports the chart points as CSV', async () => {
    await open();
    await signIn(page, server.url, 'admin');
    await page.goto(`${server.url}/shack/status/compared`);
    const add = page.getByTestId('compare-add');
    await expect.poll(() => add.locator('option').count()).toBeGreaterThan(7);
    for (let i = 0; i < 7; i++) {
      const value = await add.locator('option').nth(1).getAttribute('value');
      await add.selectOption(value!);
    }
    await expect
      .poll(() => page.getByTestId('compare-message').textContent())
      .toBe('At most 6 houses can be compared.');
    expect(await page.getByTestId('compare-selected').locator('.bp6-tag').count()).toBe(6);
    await page.getByTestId('compare-window').selectOption('week');
    await page.getByTestId('compare-granularity').selectOption('hour');
    await page.getByTestId('compare-run').click();
    await page.getByTestId('compare-chart').waitFor();
    // Drawn, not only in the DOM: the chart box has its height (visx 4 clipped it to nothing).
    const box = await page.getByTestId('compare-chart').locator('svg[role="img"]').boundingBox();
    expect(box!.height).toBeGreaterThan(300);
    const names = await page.getByTestId('compare-selected').locator('.bp6-tag').allTextContents();
    expect(await page.getByTestId('legend-item').allTextContents()).toEqual(names);
    expect(await page.locator('[data-testid="compare-chart"] path[data-series]').count()).toBe(6);
    // Each column names its house and, under it, its farm: "House 1" alone is ambiguous.
    const headers = await page.locator('[data-testid="compare-table"] thead th').allInnerTexts();
    expect(headers.slice(1)).toEqual(names.map((name) => name.split(' / ').reverse().join('\n')));
    await expect
      .poll(() => page.locator('[data-testid="compare-table"] tbody tr').count())
      .toBeGreaterThanOrEqual(24);
    const tableRows = await page.locator('[data-testid="compare-table"] tbody tr').count();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('compare-export-csv').click(),
    ]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const lines = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines.length - 1).toBe(tableRows);
    // Every exported row carries the values of the table's row, which holds the chart's points.
    const tableValues = await page
      .locator('[data-testid="compare-table"] tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].slice(1).map((td) => td.textContent ?? '')),
      );
    const csvValues = lines.slice(1).map((line) => line.split(',').slice(1));
    const rounded = (rows: string[][]) =>
      rows.map((cells) => cells.map((v) => (v === '' ? '' : Number(v).toFixed(1))));
    expect(rounded(csvValues)).toEqual(rounded(tableValues));

    // Aligned by flock age: day of age on the axis and the breed standard dashed beside them.
    await page.locator('label:has([data-testid="compare-align"])').click();
    await page.getByTestId('compare-run').click();
    await expect
      .poll(() => page.locator('[data-testid="compare-table"] th').first().textContent())
      .toBe('Day of age');
    const legend = await page.getByTestId('legend-item').allTextContents();
    expect(legend.slice(0, 6)).toEqual(names);
    expect(legend.length).toBeGreaterThan(6);
    expect(legend.slice(6).every((l) => l.startsWith('Breed standard: '))).toBe(true);
    expect(await page.locator('[data-testid="compare-chart"] path[stroke-dasharray]').count()).toBe(
      legend.length - 6,
    );
    expect(
      await page.locator('[data-testid="compare-table"] tbody tr td').first().textContent(),
    ).toMatch(/^Day \d+/);
    await page.screenshot({ path: '.tmp/houses-screens/compared-by-age-en-1440.png' });
  });

  it.each(['shack', 'farm'])('a %s manager sees only the houses of its scope', async (user) => {
    await open();
    await signIn(page, server.url, user);
    const token = (await context.cookies()).find((c) => c.name === 'Admin-Token')!.value;
    const res = await fetch(`${server.url}/api/overview/listOverview/`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const scoped = ((await res.json()) as { data: { rows: Array<{ houseId: number }> } }).data.rows;
    await page.goto(`${server.url}/shack/status/overview`);
    await page.getByTestId('house-grid').waitFor();
    await expect.poll(() => count('all')).toBe(scoped.length);
    const shown = await page
      .getByTestId('house-card')
      .evaluateAll((cards) => cards.map((c) => Number(c.getAttribute('data-house-id'))));
    const allowed = new Set(scoped.map((r) => r.houseId));
    expect(shown.every((id) => allowed.has(id))).toBe(true);
    await page.goto(`${server.url}/shack/status/compared`);
    await expect
      .poll(() => page.getByTestId('compare-add').locator('option').count())
      .toBe(scoped.length + 1);
    await page.goto(`${server.url}/dashboard`);
    await expect
      .poll(() => page.getByTestId('stat-total').getByTestId('stat-value').textContent())
      .toBe(String(scoped.length));
    const attention = await page
      .getByTestId('attention-row')
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-house-id'))));
    expect(attention.length).toBeGreaterThan(0);
    expect(attention.every((id) => allowed.has(id))).toBe(true);

    // A house outside the scope: the monitor does not show it, and no export hands it out.
    const [outside] = await server.roost.database.query<{ id: number }>(
      'select id from houses where not (id = any($1::int[])) order by id limit 1',
      [[...allowed]],
    );
    await page.goto(`${server.url}/shack/status/monitor?houseId=${outside!.id}`);
    await page.getByText('This house is not in your scope.').waitFor();
    expect(await page.getByTestId('monitor-sensors').count()).toBe(0);
    const inside = scoped[0]!.houseId;
    const window = `from=${Date.now() - 86_400_000}&to=${Date.now()}&granularity=hour&format=csv`;
    const exportStatus = async (path: string) =>
      (
        await fetch(`${server.url}/api${path}&${window}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status;
    expect(
      await exportStatus(`/houses/trend/export?houseId=${outside!.id}&metrics=temperature`),
    ).toBe(404);
    expect(
      await exportStatus(
        `/houses/compare/export?houseIds=${inside},${outside!.id}&metric=temperature`,
      ),
    ).toBe(404);
    expect(
      await exportStatus(
        `/houses/compare/export?houseIds=${outside!.id}&metric=temperature&align=age`,
      ),
    ).toBe(404);
    expect(await exportStatus(`/houses/trend/export?houseId=${inside}&metrics=temperature`)).toBe(
      200,
    );
    expect(await exportStatus(`/houses/compare/export?houseIds=${inside}&metric=temperature`)).toBe(
      200,
    );
  });

  it("home counts today's alarms live and lists alarms first; the monitor acknowledges, only with canOperate", async () => {
    const db = server.roost.database;
    const [house] = await db.query<{ id: number; network_id: string }>(
      `select h.id, g.network_id from houses h join farms f on f.id = h.farm_id
       join gateways g on g.house_id = h.id where f.name = 'Weifang Broiler Farm' and h.name = 'House 4'`,
    );
    await db.query(
      `insert into alarm_limits (house_id, limits) values ($1, '{"minDurationSeconds":0}')`,
      [house!.id],
    );
    const token = 'e2e-houses-alarm-token';
    await db.query('update gateways set token_hash = $1 where network_id = $2', [
      hashToken(token),
      house!.network_id,
    ]);
    server.roost.ingest.directory.forget(house!.network_id);
    await open();
    await signIn(page, server.url, 'admin');
    await page.goto(`${server.url}/dashboard`);
    await expect
      .poll(() => indicator().getAttribute('data-state'), { timeout: 15_000 })
      .toBe('live');
    const today = () => page.getByTestId('stat-today').getByTestId('stat-value').textContent();
    await expect.poll(today).toMatch(/^\d+$/);
    const before = Number(await today());

    const res = await fetch(`${server.url}/api/ingest/${house!.network_id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ts: Date.now(), metrics: { co2: 15_000, temperature: 25 } }),
    });
    expect(res.status).toBe(200);
    // No reload: the count, the cause and the attention list follow the live alarm.
    await expect.poll(today, LIVE_WAIT).toBe(String(before + 1));
    await page.getByTestId('today-co2High').waitFor();
    const row = page.locator(`[data-testid="attention-row"][data-house-id="${house!.id}"]`);
    await expect.poll(() => row.getAttribute('data-status'), LIVE_WAIT).toBe('alarm');
    const statuses = await page
      .getByTestId('attention-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status') ?? ''));
    const rank = { alarm: 0, offline: 1 } as Record<string, number>;
    const ranks = statuses.map((st) => rank[st] ?? 2);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));

    // A viewer without the operation permission sees the alarm but no acknowledge button.
    await db.query(`update users set can_operate = false where username = 'area'`);
    const viewerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const viewer = await viewerContext.newPage();
    await signIn(viewer, server.url, 'area');
    await viewer.goto(`${server.url}/shack/status/monitor?houseId=${house!.id}`);
    await viewer.locator('[data-testid="monitor-alarm"][data-state="active"]').waitFor();
    expect(await viewer.locator('[data-testid^="ack-"]').count()).toBe(0);
    await viewerContext.close();

    await page.goto(`${server.url}/shack/status/monitor?houseId=${house!.id}`);
    const alarm = page.locator('[data-testid="monitor-alarm"][data-state="active"]');
    await alarm.getByText('CO2 too high').waitFor();
    await alarm.getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator('[data-testid="monitor-alarm"][data-state="acknowledged"]').waitFor();
    expect(await page.locator('[data-testid^="ack-"]').count()).toBe(0);
  });

  it('takes screenshots of home, overview, monitor and compared in en and zh', async () => {
    // Readings for a farm's houses over the last 2 hours, so the screens show what a user sees.
    const db = server.roost.database;
    const gateways = await db.query<{ network_id: string }>(
      `select g.network_id from gateways g join houses h on h.id = g.house_id join farms f on f.id = h.farm_id
       where f.name = 'Weifang Broiler Farm' order by h.sort`,
    );
    for (const [i, g] of gateways.entries()) {
      const token = `e2e-screens-${i}`;
      await db.query('update gateways set token_hash = $1 where network_id = $2', [
        hashToken(token),
        g.network_id,
      ]);
      server.roost.ingest.directory.forget(g.network_id);
      for (let m = 120; m >= 0; m -= 10) {
        const res = await fetch(`${server.url}/api/ingest/${g.network_id}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            ts: Date.now() - m * 60_000,
            mode: i === 5 ? 13 : 1,
            metrics: {
              temperature: 24 + i * 0.4 + Math.sin(m / 30),
              temperature_target: 25,
              humidity: 58 + i,
              co2: 1_500 + i * 120,
              nh3: i === 2 ? -999 : 6 + i,
              ventilation_level: i === 4 ? -1 : 3 + i,
              alive: 19_500 - i * 40,
            },
            devices: {
              fan_1: { state: 1 },
              fan_2: { state: i === 3 ? 3 : 0 },
              inlet_1: { state: 1, opening: 35 },
            },
          }),
        });
        expect(res.status).toBe(200);
      }
    }
    for (const locale of ['en', 'zh'] as const)
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await open(viewport);
        await context.addCookies([{ name: 'language', value: locale, url: server.url }]);
        await signIn(page, server.url, 'admin');
        const [first] = await server.roost.database.query<{ id: number }>(
          'select house_id as id from house_state where online order by alarm_count desc, house_id limit 1',
        );
        for (const [name, path] of [
          ['home', '/dashboard'],
          ['overview', '/shack/status/overview'],
          ['monitor', `/shack/status/monitor?houseId=${first?.id ?? 1}`],
          ['compared', '/shack/status/compared'],
        ] as const) {
          await page.goto(`${server.url}${path}`);
          await page
            .getByTestId('live-indicator')
            .or(page.getByTestId('page-houseCompared'))
            .first()
            .waitFor();
          if (name === 'compared') {
            // A drawn comparison (3 houses, by flock age) rather than the empty form.
            const add = page.getByTestId('compare-add');
            await expect.poll(() => add.locator('option').count()).toBeGreaterThan(3);
            for (let i = 0; i < 3; i++)
              await add.selectOption((await add.locator('option').nth(1).getAttribute('value'))!);
            await page.locator('label:has([data-testid="compare-align"])').click();
            await page.getByTestId('compare-run').click();
            await page.getByTestId('compare-chart').locator('svg[role="img"]').waitFor();
          }
          await page.waitForTimeout(500);
          await page.screenshot({
            path: `.tmp/houses-screens/${name}-${locale}-${viewport.width}.png`,
          });
        }
        await context.close();
      }
    // Four pages in two languages at two sizes: minutes on the loaded 2-core machine.
  }, 300_000);
});
