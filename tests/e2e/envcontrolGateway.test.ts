import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { startSimulator, type RunningSimulator } from '../../server/simulator/simulator';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import type { DemoGateway } from '../../server/demo/seed';
import { freePort } from '../helpers/processes';
import { LIVE_WAIT, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

const SHOTS = '/work/shots/house';

let server: TestServer;
let browser: Browser;
let sim: RunningSimulator;
let gateways: DemoGateway[];

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({ MQTT_PORT: String(mqttPort), ROOST_SIMULATOR: 'off' }),
    launchBrowser(),
  ]);
  gateways = server.roost.boot.demoGateways!.filter((g) => g.farmName === 'Weifang Broiler Farm');
  // Upgrades that always succeed, slowly enough for the page to show each stage.
  sim = await startSimulator({
    url: `mqtt://127.0.0.1:${mqttPort}`,
    gateways,
    intervalMs: 2_000,
    seed: 5,
    controller: { applyDelayMs: [100, 300], localChangeChance: 0 },
    upgrade: {
      stepMs: 700,
      restartMs: 1_500,
      slowChance: 0,
      refuseChance: 0,
      corruptChance: 0,
      failChance: 0,
    },
  });
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await sim?.stop();
  await browser?.close();
  await server?.stop();
});

/** Uploads an upgrade file as the administrator, through the API (for the demo's types). */
async function uploadFile(
  version: string,
  typeKeys: readonly number[] = [...new Set(gateways.map((g) => g.typeKey))],
): Promise<void> {
  const login = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD, code: 'any' }),
  });
  const { data } = (await login.json()) as { data: { token: string } };
  const form = new FormData();
  form.append(
    'file',
    new Blob([Buffer.alloc(200_000, version.length)]),
    `roost-gw-${version.replaceAll('.', '_')}`,
  );
  const res = await fetch(
    `${server.url}/api/upgrade/uploadFile?version=${version}&typeKeys=${typeKeys.join(',')}`,
    {
      method: 'POST',
      headers: { authorization: data.token },
      body: form,
    },
  );
  expect(res.status).toBe(200);
}

async function openHouse(page: Page, houseId: number): Promise<void> {
  await page.goto(`${server.url}/envcontrol/index?houseId=${houseId}`);
  await page.getByTestId('envcontrol-gateway').waitFor();
  await expect
    .poll(() => page.getByTestId('envcontrol-online').textContent(), LIVE_WAIT)
    .toMatch(/Online|在线/);
}

describe('House Setting: the gateway itself', () => {
  it('moves the simulated gateway to the new version, with its progress on the page', async () => {
    await uploadFile('2.9.0');
    const house = gateways[0]!;
    // Firmware for another model: the dialog does not offer it for this house.
    await uploadFile('7.7.7-other', [house.typeKey === 60 ? 25 : 60]);
    const admin = await openSignedIn(browser, server.url, 'admin');
    const watcher = await openSignedIn(browser, server.url, 'company', {
      language: 'zh',
      viewport: { width: 390, height: 844 },
    });
    await Promise.all([
      openHouse(admin.page, house.houseId),
      openHouse(watcher.page, house.houseId),
    ]);
    const gatewayCard = admin.page.getByTestId('envcontrol-gateway');
    expect(await gatewayCard.textContent()).toContain('2.8.4');

    await admin.page.getByTestId('envcontrol-upgrade').click();
    const dialog = admin.page.getByTestId('envcontrol-upgrade-dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.locator('option').count()).toBeGreaterThan(1);
    expect(await dialog.locator('option').allTextContents()).not.toContainEqual(
      expect.stringContaining('7.7.7-other'),
    );
    const file = admin.page.getByTestId('envcontrol-upgrade-file');
    await file.selectOption({ index: 1 });
    await admin.page.getByTestId('envcontrol-upgrade-send').click();
    // The upgrade's confirmation comes first; the second press sends.
    const confirm = admin.page.getByTestId('envcontrol-upgrade-confirm');
    await expect.poll(() => confirm.textContent()).toContain('2.8.4 to 2.9.0');
    await admin.page.screenshot({ path: `${SHOTS}/upgrade-confirm-en-1440.png` });
    await admin.page.getByTestId('envcontrol-upgrade-send').click();

    // Live, on both consoles: the stages as the gateway reports them, then the new version.
    const result = admin.page.getByTestId('envcontrol-upgrade-result');
    await expect.poll(() => result.textContent(), LIVE_WAIT).toMatch(/Downloading \d+%/);
    await admin.page.screenshot({ path: `${SHOTS}/upgrade-progress-en-1440.png`, fullPage: true });
    await expect
      .poll(() => watcher.page.getByTestId('envcontrol-upgrade-result').textContent(), LIVE_WAIT)
      .toMatch(/正在|等待/);
    await watcher.page.screenshot({ path: `${SHOTS}/upgrade-progress-zh-390.png`, fullPage: true });
    await expect
      .poll(
        () => admin.page.getByTestId('envcontrol-upgrade-status').getAttribute('data-state'),
        LIVE_WAIT,
      )
      .toBe('applied');
    await expect.poll(() => result.textContent()).toBe('Now running 2.9.0');
    await expect.poll(() => gatewayCard.textContent(), LIVE_WAIT).toContain('2.9.0');
    await expect
      .poll(() => watcher.page.getByTestId('envcontrol-gateway').textContent(), LIVE_WAIT)
      .toContain('2.9.0');
    expect(sim.gateway(house.networkId)!.version).toBe('2.9.0');
    await admin.page.screenshot({ path: `${SHOTS}/upgrade-done-en-1440.png`, fullPage: true });
    await watcher.page.screenshot({ path: `${SHOTS}/upgrade-done-zh-390.png`, fullPage: true });
    await admin.page.setViewportSize({ width: 390, height: 844 });
    await admin.page.screenshot({ path: `${SHOTS}/upgrade-done-en-390.png`, fullPage: true });
    await admin.page.setViewportSize({ width: 1440, height: 900 });
    await watcher.page.setViewportSize({ width: 1440, height: 900 });
    await watcher.page.screenshot({ path: `${SHOTS}/upgrade-done-zh-1440.png`, fullPage: true });

    // The same file again: nothing to do, and the page says so.
    await admin.page.getByTestId('envcontrol-upgrade').click();
    await expect.poll(() => dialog.locator('option').count()).toBeGreaterThan(1);
    await file.selectOption({ index: 1 });
    await admin.page.getByTestId('envcontrol-upgrade-send').click();
    await admin.page.getByTestId('envcontrol-upgrade-send').click();
    await expect
      .poll(() => admin.page.locator('.bp6-toast').allTextContents())
      .toEqual(expect.arrayContaining([expect.stringContaining('No updates detected')]));
    await admin.context.close();
    await watcher.context.close();
  });

  it('loads the device log of a gateway, and says clearly when it is offline', async () => {
    const [, house, away] = gateways;
    const zh = await openSignedIn(browser, server.url, 'farm', { language: 'zh' });
    const en = await openSignedIn(browser, server.url, 'farm', {
      viewport: { width: 390, height: 844 },
    });
    await Promise.all([openHouse(zh.page, house!.houseId), openHouse(en.page, house!.houseId)]);
    for (const [page, loaded] of [
      [zh.page, '加载设备日志成功'],
      [en.page, 'Load device log successfully'],
    ] as const) {
      await page.getByTestId('envcontrol-load-log').click();
      await expect
        .poll(() => page.getByTestId('envcontrol-log-lines').textContent(), LIVE_WAIT)
        .toMatch(/network up, firmware 2\.8\.4/);
      await page.locator('.bp6-toast', { hasText: loaded }).waitFor();
    }
    await zh.page.getByTestId('envcontrol-device-log').scrollIntoViewIfNeeded();
    await zh.page.screenshot({ path: `${SHOTS}/device-log-zh-1440.png` });
    await en.page.getByTestId('envcontrol-device-log').scrollIntoViewIfNeeded();
    await en.page.screenshot({ path: `${SHOTS}/device-log-en-390.png` });

    sim.gateway(away!.networkId)!.holdOffline(true);
    await en.page.goto(`${server.url}/envcontrol/index?houseId=${away!.houseId}`);
    await expect
      .poll(() => en.page.getByTestId('envcontrol-online').textContent(), LIVE_WAIT)
      .toMatch(/Offline/);
    await en.page.getByTestId('envcontrol-load-log').click();
    await en.page
      .locator('.bp6-toast', { hasText: 'The gateway is offline: its log can be loaded' })
      .waitFor();
    sim.gateway(away!.networkId)!.holdOffline(false);
    await zh.context.close();
    await en.context.close();
  });

  it('filters the modify records and exports them as CSV with old and new values', async () => {
    const house = gateways[3]!;
    const insert = (
      at: string,
      source: string,
      who: string,
      key: string,
      from: number,
      to: number,
    ) =>
      server.roost.database.query(
        `insert into param_changes (house_id, gateway_id, at, source, operator_name, key, old_value, new_value)
         select $1, g.id, $2::timestamptz, $3, $4, $5, $6, $7 from gateways g where g.house_id = $1`,
        [house.houseId, at, source, who, key, from, to],
      );
    await insert('2026-11-01T08:00:00Z', 'console', 'Wang Li', 'heat_offset', 1, 2.5);
    await insert('2026-11-02T08:00:00Z', 'local', '', 'light_hours', 18, 20);
    await insert('2026-11-03T08:00:00Z', 'console', 'Liu Yang', 'alarm_temp_high', 35, 36);
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    await openHouse(page, house.houseId);
    const rows = page.getByTestId('record-row');
    await expect.poll(() => rows.count(), LIVE_WAIT).toBe(3);
    await page.locator('#records-source').selectOption('local');
    await page.getByTestId('records-search').click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('18 → 20');
    await page.locator('#records-source').selectOption('');
    await page.locator('#records-operator').fill('wang');
    await page.getByTestId('records-search').click();
    // One row before and after: wait for the row itself to change.
    await expect.poll(() => rows.first().textContent()).toContain('Heating offset');
    expect(await rows.count()).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('records-export').click(),
    ]);
    const csv = await new Promise<string>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.on('error', reject);
      }, reject);
    });
    expect(csv).toContain('"Heating offset","1","2.5"');
    expect(csv).not.toContain('Liu Yang');
    // The date filters take a day as the table writes it, and keep only that day's change.
    await page.locator('#records-operator').fill('');
    await page.locator('#records-from').fill('2026-11-02');
    await page.locator('#records-to').fill('2026-11-02');
    await page.getByTestId('records-search').click();
    await expect.poll(() => rows.first().textContent()).toContain('18 → 20');
    expect(await rows.count()).toBe(1);
    await page.getByTestId('envcontrol-records').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/records-en-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('envcontrol-records').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/records-en-390.png` });
    await context.close();
    const zh = await openSignedIn(browser, server.url, 'company', { language: 'zh' });
    await openHouse(zh.page, house.houseId);
    await expect.poll(() => zh.page.getByTestId('record-row').count(), LIVE_WAIT).toBe(3);
    await zh.page.getByTestId('envcontrol-records').scrollIntoViewIfNeeded();
    await zh.page.screenshot({ path: `${SHOTS}/records-zh-1440.png` });
    await zh.page.setViewportSize({ width: 390, height: 844 });
    await zh.page.getByTestId('envcontrol-records').scrollIntoViewIfNeeded();
    await zh.page.screenshot({ path: `${SHOTS}/records-zh-390.png` });
    await zh.context.close();
  });

  it('shows an AI6000 controller on a dashboard of its own: live readings and its parameters', async () => {
    const house = gateways.find((g) => g.typeKey === 60)!;
    for (const [user, language] of [
      ['admin', 'en'],
      ['company', 'zh'],
    ] as const) {
      const { context, page } = await openSignedIn(browser, server.url, user, { language });
      await openHouse(page, house.houseId);
      await page.getByTestId('envcontrol-ai6000').click();
      await page.getByTestId('page-ai6000').waitFor();
      await expect
        .poll(() => page.getByTestId('ai6000-metric-temperature').textContent(), LIVE_WAIT)
        .toMatch(/\d+(\.\d)? ℃/);
      await expect
        .poll(() => page.getByTestId('ai6000-param-heat_offset').textContent(), LIVE_WAIT)
        .toMatch(/1 ℃/);
      expect(await page.getByTestId('ai6000-title').textContent()).toContain('House 8');
      expect(await page.getByTestId('page-ai6000').textContent()).toContain('3.2.1');
      await page.screenshot({ path: `${SHOTS}/ai6000-${language}-1440.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expect
        .poll(() => page.getByTestId('ai6000-param-heat_offset').textContent(), LIVE_WAIT)
        .toMatch(/1 ℃/);
      await page.screenshot({ path: `${SHOTS}/ai6000-${language}-390.png`, fullPage: true });
      await context.close();
    }
  });
});
