import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { startSimulator, type RunningSimulator } from '../../server/simulator/simulator';
import type { DemoGateway } from '../../server/demo/seed';
import { freePort } from '../helpers/processes';
import { LIVE_WAIT, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

const SHOTS = '/work/shots/roostLimits';

let server: TestServer;
let browser: Browser;
let sim: RunningSimulator;
let house: DemoGateway;

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({ MQTT_PORT: String(mqttPort), ROOST_SIMULATOR: 'off' }),
    launchBrowser(),
  ]);
  house = server.roost.boot.demoGateways!.find(
    (g) => g.farmName === 'Weifang Broiler Farm' && g.houseName === 'House 2',
  )!;
  // The controller reports its parameters, its own alarm limits among them.
  sim = await startSimulator({
    url: `mqtt://127.0.0.1:${mqttPort}`,
    gateways: [house],
    intervalMs: 2_000,
    seed: 5,
    controller: { applyDelayMs: [100, 300], localChangeChance: 0 },
  });
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  await sim?.stop();
  await browser?.close();
  await server?.stop();
});

describe("House Setting's alarm limits", () => {
  it("say the controller's are its own, which limit Roost raises at and why, and let the house follow its controller", async () => {
    const { page, context } = await openSignedIn(browser, server.url, 'admin');
    await page.goto(`${server.url}/envcontrol/index?houseId=${house.houseId}`);
    const high = page.getByTestId('roost-limit-temperatureHigh');
    await expect.poll(() => high.textContent(), LIVE_WAIT).toMatch(/breed target .* \+ 5 ℃/);
    await expect
      .poll(() => page.getByTestId('roost-limits').textContent())
      .toContain('controller’s own alarm limits');
    const controllerHigh = await page.getByTestId('param-alarm_temp_high-current').textContent();
    expect(controllerHigh).toMatch(/℃/);
    await page.getByTestId('roost-limits').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/own-1440-en.png`, fullPage: false });

    await page.getByText('Roost follows the controller’s alarm limits').click();
    await expect.poll(() => high.textContent(), LIVE_WAIT).toContain('the controller’s limit');
    // The limit Roost now raises at is the one the controller shows.
    expect(await high.textContent()).toContain(controllerHigh!.trim());
    await context.close();

    const zh = await openSignedIn(browser, server.url, 'admin', {
      language: 'zh',
      viewport: { width: 390, height: 844 },
    });
    await zh.page.goto(`${server.url}/envcontrol/index?houseId=${house.houseId}`);
    const zhHigh = zh.page.getByTestId('roost-limit-temperatureHigh');
    await expect.poll(() => zhHigh.textContent(), LIVE_WAIT).toContain('控制器限值');
    await zh.page.getByTestId('roost-limits').scrollIntoViewIfNeeded();
    await zh.page.screenshot({ path: `${SHOTS}/follow-390-zh.png` });
    await zh.context.close();
  });
});
