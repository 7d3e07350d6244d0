import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import mqtt, { type MqttClient } from 'mqtt';
import { hashToken } from '../../server/auth/tokens';
import { disableNagle } from '../../server/mqtt/noDelay';
import { freePort } from '../helpers/processes';
import {
  confirmSave,
  launchBrowser,
  LIVE_WAIT,
  openSignedIn,
  startServer,
  type TestServer,
} from './harness';

let server: TestServer;
let browser: Browser;
let client: MqttClient | null = null;
const pageErrors: string[] = [];
const TOKEN = 'e2e-devices-token';
const SHOTS = process.env.SHOTS_DIR;

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({ MQTT_PORT: String(mqttPort), ROOST_SIMULATOR: 'off' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  client?.end(true);
  await browser?.close();
  await server?.stop();
});

function watchErrors(page: Page): void {
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      pageErrors.push(m.text());
  });
}

async function open(
  path: string,
  language: 'en' | 'zh' = 'en',
  viewport = { width: 1440, height: 900 },
) {
  const { page } = await openSignedIn(browser, server.url, 'farm', { language, viewport });
  watchErrors(page);
  await page.goto(`${server.url}${path}`);
  await expect
    .poll(() => page.getByTestId('layout').getAttribute('data-live'), { timeout: 15_000 })
    .toBe('live');
  return page;
}

/** A demo house's gateway with a known token, connected to the embedded broker. */
async function connectGateway(farm: string, house: string) {
  const db = server.roost.database;
  const [row] = await db.query<{ house_id: number; network_id: string }>(
    `select h.id as house_id, g.network_id from houses h join farms f on f.id = h.farm_id
     join gateways g on g.house_id = h.id where f.name = $1 and h.name = $2`,
    [farm, house],
  );
  if (!row) throw new Error(`no demo house ${house}`);
  await db.query('update gateways set token_hash = $1 where network_id = $2', [
    hashToken(TOKEN),
    row.network_id,
  ]);
  server.roost.ingest.directory.forget(row.network_id);
  client = mqtt.connect(`mqtt://127.0.0.1:${server.roost.mqttPort}`, {
    username: row.network_id,
    password: TOKEN,
    clientId: `e2e-devices-${row.network_id}`,
    reconnectPeriod: 0,
  });
  disableNagle(client);
  await new Promise<void>((resolve, reject) => {
    client!.once('connect', () => resolve());
    client!.once('error', reject);
  });
  const publish = (
    metrics: Record<string, number>,
    devices: Record<string, { state: number }> = {},
  ) =>
    client!.publishAsync(
      `roost/v1/${row.network_id}/telemetry`,
      JSON.stringify({ ts: Date.now(), metrics, devices }),
      { qos: 1 },
    );
  return { houseId: row.house_id, publish };
}

const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
};

describe('devices in the console', () => {
  it('Shack Manage reads in Chinese and on a phone', async () => {
    for (const [language, viewport] of [
      ['en', { width: 390, height: 844 }],
      ['zh', { width: 1440, height: 900 }],
      ['zh', { width: 390, height: 844 }],
    ] as const) {
      const page = await open('/shack/manage', language, viewport);
      await page.getByTestId('manage-houses').waitFor();
      await shot(page, `manage-list-${language}-${viewport.width}`);
      if (language === 'zh')
        expect(await page.getByTestId('manage-houses').innerText()).toContain('养殖场');
      await page.getByTestId('manage-picker').selectOption({ index: 1 });
      await page.getByTestId('manage-title').waitFor();
      await page
        .getByText(language === 'zh' ? '暂无数据' : 'Nothing here yet')
        .first()
        .waitFor();
      await shot(page, `manage-house-${language}-${viewport.width}`);
      // The house's tabs and tables never push the page wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await page.context().close();
    }
    expect(pageErrors).toEqual([]);
  });

  it('creates a concentrator and a terminal device with two extra parameters; their readings over MQTT show live on the monitor; status follows the controller; delete says how many are left', async () => {
    const { houseId, publish } = await connectGateway('Weifang Broiler Farm', 'House 1');
    const page = await open('/shack/manage');
    await page.getByTestId(`manage-open-${houseId}`).click();
    await page.getByTestId('manage-title').waitFor();

    await page.getByRole('tab', { name: 'Concentrators' }).click();
    await page.getByTestId('concentrator-add').click();
    await page.getByTestId('concentrator-code').fill('C7');
    await page.getByTestId('concentrator-name').fill('Line controller');
    await page.getByTestId('concentrator-save').click();
    // A new entry replaces nothing: the question asks whether to add it.
    const question = page.locator('.roost-confirm-save');
    await question.waitFor();
    expect(await question.innerText()).toContain('Add this entry?');
    expect(await question.innerText()).not.toMatch(/replace/i);
    await confirmSave(page);
    await page.getByTestId('concentrator-C7').waitFor();

    await page.getByRole('tab', { name: 'Terminal devices' }).click();
    await page.getByTestId('terminal-add').click();
    const dialog = page.locator('.roost-devices__dialog');
    await page.getByTestId('terminal-name').fill('Dust and scale');
    await page.getByTestId('terminal-code').fill('DS1');
    await page.getByTestId('terminal-controlPort').fill('fan_1');
    await dialog.locator('select').nth(1).selectOption({ label: 'Line controller' });
    for (const [i, [code, name, unit, max]] of [
      ['dust', 'Dust', 'mg/m³', '50'],
      ['scale_1', 'Scale', 'kg', '500'],
    ].entries()) {
      await page.getByTestId('extra-add').click();
      const row = page.getByTestId(`extra-${i}`);
      await row.getByLabel('Code').fill(code!);
      await row.getByLabel('Name').fill(name!);
      await row.getByLabel('Unit').fill(unit!);
      await row.getByLabel('Maximum').fill(max!);
    }
    await page.getByTestId('terminal-save').click();
    await confirmSave(page);
    const device = page.getByTestId('terminal-DS1');
    await device.waitFor();
    expect(await device.innerText()).toContain('Dust (mg/m³), Scale (kg)');

    // The controller reports the port in error: the row turns to fault without a reload.
    await publish({ temperature: 22 }, { fan_1: { state: 3 } });
    await expect
      .poll(() => device.locator('[data-status]').getAttribute('data-status'), LIVE_WAIT)
      .toBe('fault');
    await publish({ temperature: 22 }, { fan_1: { state: 1 } });
    await expect
      .poll(() => device.locator('[data-status]').getAttribute('data-status'), LIVE_WAIT)
      .toBe('online');
    await shot(page, 'manage-house-en-1440');

    const monitor = await open(`/shack/status/monitor?houseId=${houseId}`);
    await monitor.getByTestId('monitor-extras').waitFor();
    // The page follows the house's full-rate readings a moment after it opens (a socket
    // subscription), and a reading from before that is only in the 24-hour curve it fetched on
    // opening: the gateway reports until the curves have a reading. Each extra parameter's
    // chart then names its unit on the value axis, as the climate charts do.
    const chartUnits = () =>
      monitor.getByTestId('monitor-extras').getByTestId('chart-unit').allTextContents();
    await expect
      .poll(async () => {
        await publish({ temperature: 22, dust: 17.5, scale_1: 231 });
        return chartUnits();
      }, LIVE_WAIT)
      .toEqual(expect.arrayContaining(['mg/m³', 'kg']));
    await expect
      .poll(() => monitor.getByTestId('extra-value-dust').innerText(), LIVE_WAIT)
      .toBe('17.5 mg/m³');
    expect(await monitor.getByTestId('extra-value-scale_1').innerText()).toBe('231 kg');
    // Out of range: refused and counted, the monitor keeps the last good value.
    const refused = server.roost.ingest.counters.rejected.outOfRange;
    await publish({ dust: 80 });
    await expect
      .poll(() => server.roost.ingest.counters.rejected.outOfRange, LIVE_WAIT)
      .toBe(refused + 1);
    expect(await monitor.getByTestId('extra-value-dust').innerText()).toBe('17.5 mg/m³');
    await shot(monitor, 'monitor-extras-en-1440');

    // House Compared offers the device's parameters beside the catalogue's and draws them.
    const compared = await open('/shack/status/compared');
    await compared.getByTestId('compare-add').selectOption(String(houseId));
    const metric = compared.getByTestId('compare-metric');
    await expect.poll(() => metric.locator('option[value="dust"]').count(), LIVE_WAIT).toBe(1);
    expect(await metric.locator('option[value="dust"]').textContent()).toBe('Dust (mg/m³)');
    await metric.selectOption('dust');
    await compared.getByTestId('compare-granularity').selectOption('hour');
    await compared.getByTestId('compare-run').click();
    await expect
      .poll(
        () => compared.locator('[data-testid="compare-table"] tbody td').allInnerTexts(),
        LIVE_WAIT,
      )
      .toContain('17.5');
    // The chart is drawn after the table (its module loads on first use): wait for it.
    await expect
      .poll(
        () => compared.locator('[data-testid="compare-chart"] path[data-series]').count(),
        LIVE_WAIT,
      )
      .toBe(1);

    // Delete the concentrator: the confirmation says how many are left in the house.
    await page.getByRole('tab', { name: 'Concentrators' }).click();
    await page
      .getByTestId('concentrator-C7')
      .getByRole('button', { name: 'Delete Line controller' })
      .click();
    expect(await page.getByTestId('confirm-delete').innerText()).toContain('0 will be left');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByTestId('concentrator-C7').waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});
