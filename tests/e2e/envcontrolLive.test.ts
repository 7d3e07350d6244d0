import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { type Browser, type Page } from 'playwright-core';
import { gatewayTopic } from '../../src/contract/gateway';
import { freePort } from '../helpers/processes';
import { LIVE_WAIT, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

/**
 * A change made at the controller itself (its config/report) reaches an open
 * House Setting without a reload, on every console that may see the house; and the version the
 * gateway reports is the one the gateway card shows (point 2).
 */

const PARAMS = { heat_offset: 1, cool_offset: 2, alarm_temp_high: 35, alarm_temp_low: 15 };

let server: TestServer;
let browser: Browser;
let gateway: MqttClient;
let networkId: string;
let houseId: number;

const report = (body: object) =>
  gateway.publishAsync(
    gatewayTopic(networkId, 'config/report'),
    JSON.stringify({ ts: Date.now(), ...body }),
    { qos: 1 },
  );

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({ MQTT_PORT: String(mqttPort), ROOST_SIMULATOR: 'off' }),
    launchBrowser(),
  ]);
  // House 2 of Weifang: the demo's house manager is given it, as are the administrators.
  const demo = server.roost.boot.demoGateways!.find(
    (g) => g.farmName === 'Weifang Broiler Farm' && g.houseName === 'House 2',
  )!;
  ({ networkId, houseId } = demo);
  gateway = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
    username: networkId,
    password: demo.token,
    clientId: networkId,
    reconnectPeriod: 0,
  });
  await gateway.publishAsync(
    gatewayTopic(networkId, 'status'),
    JSON.stringify({ online: true, network: 'wired', version: '2.8.4' }),
    { qos: 1, retain: true },
  );
  await report({ params: PARAMS, source: 'device' });
}, 120_000);
afterAll(async () => {
  await gateway?.endAsync(true);
  await browser?.close();
  await server?.stop();
});

async function openHouse(page: Page): Promise<void> {
  await page.goto(`${server.url}/envcontrol/index?houseId=${houseId}`);
  await expect
    .poll(() => page.getByTestId('param-alarm_temp_high-current').textContent(), LIVE_WAIT)
    .toBe('35 ℃');
  // Gone after a reload: what follows must reach the page as it is.
  await page.evaluate(
    () => ((window as unknown as { roostSamePage: boolean }).roostSamePage = true),
  );
}

const samePage = (page: Page) =>
  page.evaluate(() => (window as unknown as { roostSamePage?: boolean }).roostSamePage === true);

describe('House Setting follows the controller', () => {
  it('shows a value changed at the controller on every open console, without a reload', async () => {
    const admin = await openSignedIn(browser, server.url, 'admin');
    const manager = await openSignedIn(browser, server.url, 'shack', {
      language: 'zh',
      viewport: { width: 390, height: 844 },
    });
    await Promise.all([openHouse(admin.page), openHouse(manager.page)]);
    const version = admin.page.getByTestId('envcontrol-gateway');
    expect(await version.textContent()).toContain('2.8.4');

    // Someone sets the high temperature alarm to 33 ℃ at the controller's keypad.
    await report({ params: { ...PARAMS, alarm_temp_high: 33 }, source: 'local' });
    for (const page of [admin.page, manager.page]) {
      await expect
        .poll(() => page.getByTestId('param-alarm_temp_high-current').textContent(), LIVE_WAIT)
        .toBe('33 ℃');
      expect(await samePage(page)).toBe(true);
    }
    // The modify records say so too: the controller's change, 35 → 33.
    const record = admin.page.locator('[data-testid="record-row"][data-source="local"]').first();
    await expect.poll(() => record.textContent(), LIVE_WAIT).toContain('35 → 33');

    // The controller comes back on new firmware and reports it: one version on the card.
    await report({
      version: '2.9.2',
      params: { ...PARAMS, alarm_temp_high: 33 },
      source: 'device',
    });
    for (const page of [admin.page, manager.page])
      await expect
        .poll(() => page.getByTestId('envcontrol-gateway').textContent(), LIVE_WAIT)
        .toContain('2.9.2');
    expect(await version.textContent()).not.toContain('2.8.4');
    expect(await samePage(admin.page)).toBe(true);
  });
});
