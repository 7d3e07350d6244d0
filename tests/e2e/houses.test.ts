import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import mqtt, { type MqttClient } from 'mqtt';
import { hashToken } from '../../server/auth/tokens';
import { disableNagle } from '../../server/mqtt/noDelay';
import { freePort } from '../helpers/processes';
import { launchBrowser, signIn, startServer, type TestServer } from './harness';

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
  it('a reading published over MQTT changes its card within 2 s; a silent gateway turns offline', async () => {
    const { row, client } = await connectGateway(0);
    await openOverview();
    // Search brings the house into view whatever the grid's order.
    await page.getByTestId('overview-search').fill(row.house_name);
    const offlineBefore = await count('offline');

    await publish(client, row.network_id, { temperature: 27.3, temperature_target: 26 });
    await expect
      .poll(() => card(row.house_id).getByTestId('card-temperature').first().textContent(), {
        timeout: 2_000,
        interval: 100,
      })
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
      .poll(() => card(row.house_id).getByTestId('card-temperature').first().textContent(), {
        timeout: 2_000,
        interval: 100,
      })
      .toBe('29.9 ℃');
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
    const names = await page.getByTestId('compare-selected').locator('.bp6-tag').allTextContents();
    expect(await page.getByTestId('legend-item').allTextContents()).toEqual(names);
    expect(await page.locator('[data-testid="compare-chart"] path[data-series]').count()).toBe(6);
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
    const firstCells = await page
      .locator('[data-testid="compare-table"] tbody tr')
      .first()
      .locator('td')
      .allTextContents();
    const firstCsv = lines[1]!.split(',');
    expect(firstCsv.slice(1).map((v) => Number(v).toFixed(1))).toEqual(
      firstCells.slice(1).map((v) => Number(v).toFixed(1)),
    );
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
  });

  it('takes screenshots of home, overview, monitor and compared in en and zh', async () => {
    for (const locale of ['en', 'zh'] as const)
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await open(viewport);
        await context.addCookies([{ name: 'language', value: locale, url: server.url }]);
        await signIn(page, server.url, 'admin');
        const [first] = await server.roost.database.query<{ id: number }>(
          'select house_id as id from house_state where online order by house_id limit 1',
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
            .or(page.getByTestId('page-shackCompared'))
            .first()
            .waitFor();
          await page.waitForTimeout(500);
          await page.screenshot({
            path: `.tmp/houses-screens/${name}-${locale}-${viewport.width}.png`,
          });
        }
        await context.close();
      }
  });
});
