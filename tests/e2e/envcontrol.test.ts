import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { startSimulator, type RunningSimulator } from '../../server/simulator/simulator';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import type { DemoGateway } from '../../server/demo/seed';
import { freePort } from '../helpers/processes';
import { LIVE_WAIT, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

const SHOTS = '/work/shots/envcontrol';

let server: TestServer;
let browser: Browser;
let sim: RunningSimulator;
let gateways: DemoGateway[];

const gatewaysOf = (farm: string) => gateways.filter((g) => g.farmName === farm);

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({ MQTT_PORT: String(mqttPort), ROOST_SIMULATOR: 'off' }),
    launchBrowser(),
  ]);
  gateways = server.roost.boot.demoGateways!.filter((g) =>
    ['Weifang Broiler Farm', 'Gaocheng Broiler Farm'].includes(g.farmName),
  );
  // The simulated controllers answer within a fraction of a second and change nothing by
  // themselves, so what the page shows is what the test did.
  sim = await startSimulator({
    url: `mqtt://127.0.0.1:${mqttPort}`,
    gateways,
    intervalMs: 2_000,
    seed: 3,
    controller: { applyDelayMs: [100, 400], localChangeChance: 0 },
  });
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await sim?.stop();
  await browser?.close();
  await server?.stop();
});

async function openHouse(page: Page, houseId: number): Promise<void> {
  await page.goto(`${server.url}/envcontrol/index?houseId=${houseId}`);
  await page.getByTestId('envcontrol-gateway').waitFor();
  // The controller has reported its parameters: it listens for commands.
  await expect
    .poll(() => page.getByTestId('param-heat_offset-current').textContent(), LIVE_WAIT)
    .not.toBe('—');
}

const stateOfNewest = (page: Page) =>
  page.getByTestId('command-row').first().getAttribute('data-state');

describe('House Setting', () => {
  it('sends a set-point: both open consoles show it applied with the read-back value', async () => {
    const house = gatewaysOf('Weifang Broiler Farm')[0]!;
    const admin = await openSignedIn(browser, server.url, 'admin');
    const company = await openSignedIn(browser, server.url, 'company', { language: 'zh' });
    await Promise.all([
      openHouse(admin.page, house.houseId),
      openHouse(company.page, house.houseId),
    ]);

    const input = admin.page.getByTestId('param-heat_offset').locator('input');
    await input.fill('');
    await expect.poll(() => admin.page.getByTestId('envcontrol-send').isDisabled()).toBe(true);
    await input.fill('3.5');
    await admin.page.getByTestId('envcontrol-send').click();
    const diff = admin.page.getByTestId('envcontrol-diff');
    await expect.poll(() => diff.textContent()).toContain('3.5 ℃');
    await admin.page.getByTestId('envcontrol-confirm').click();

    for (const page of [admin.page, company.page]) {
      await expect.poll(() => stateOfNewest(page), LIVE_WAIT).toBe('applied');
      await expect
        .poll(() => page.getByTestId('param-heat_offset-current').textContent(), LIVE_WAIT)
        .toBe('3.5 ℃');
    }
    await expect
      .poll(() => admin.page.getByTestId('record-row').first().textContent(), LIVE_WAIT)
      .toContain('→ 3.5');
    // The console that sent it is told the controller applied it.
    await admin.page.locator('.bp6-toast', { hasText: 'Execution succeeded' }).waitFor(LIVE_WAIT);

    // And in Chinese, when the zh console sends.
    await company.page.getByTestId('param-heat_offset').locator('input').fill('3');
    await company.page.getByTestId('envcontrol-send').click();
    await company.page.getByTestId('envcontrol-confirm').click();
    await company.page.locator('.bp6-toast', { hasText: '执行成功' }).waitFor(LIVE_WAIT);
    await admin.page.screenshot({ path: `${SHOTS}/applied-en-1440.png`, fullPage: true });
    await company.page.screenshot({ path: `${SHOTS}/applied-zh-1440.png`, fullPage: true });
    await admin.context.close();
    await company.context.close();
  });

  it('shows a rejection with the controller’s reason, and a command waiting for an offline gateway until it returns', async () => {
    const [, rejecting, offline] = gatewaysOf('Weifang Broiler Farm');
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    await openHouse(page, rejecting!.houseId);
    await page.getByTestId('param-alarm_temp_low').locator('input').fill('34');
    await page.getByTestId('param-alarm_temp_high').locator('input').fill('30');
    await page.getByTestId('envcontrol-send').click();
    await page.getByTestId('envcontrol-confirm').click();
    await expect.poll(() => stateOfNewest(page), LIVE_WAIT).toBe('rejected');
    expect(await page.getByTestId('command-result').first().textContent()).toContain(
      'low temperature alarm must be below',
    );

    await openHouse(page, offline!.houseId);
    sim.gateway(offline!.networkId)!.holdOffline(true);
    await expect
      .poll(
        () => page.reload().then(() => page.getByTestId('envcontrol-online').textContent()),
        LIVE_WAIT,
      )
      .toContain('Offline');
    await page.getByTestId('param-light_hours').locator('input').fill('20');
    await page.getByTestId('envcontrol-send').click();
    await page.getByTestId('envcontrol-confirm').click();
    await expect.poll(() => stateOfNewest(page), LIVE_WAIT).toBe('queued');
    expect(await page.getByTestId('command-result').first().textContent()).toContain('Waiting');
    await page.screenshot({ path: `${SHOTS}/waiting-en-1440.png`, fullPage: true });
    sim.gateway(offline!.networkId)!.holdOffline(false);
    await expect.poll(() => stateOfNewest(page), LIVE_WAIT).toBe('applied');
    await context.close();
  });

  it('opens the send dialog only once the farm’s other houses are known, so it does not grow under the pointer', async () => {
    const house = gatewaysOf('Gaocheng Broiler Farm')[1]!;
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    // The houses come late: no live connection, and the poll's answer held back.
    await page.route('**/socket.io/**', (route) => route.abort());
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/overview/listOverview/**', async (route) => {
      await released;
      await route.continue();
    });
    // The house's own details come from their own call: the page is there, its houses are not.
    await page.goto(`${server.url}/envcontrol/index?houseId=${house.houseId}`);
    await page.getByTestId('param-alarm_nh3_high').locator('input').fill('31');
    const send = page.getByTestId('envcontrol-send');
    // Long enough for the page to have settled on its answer, short of the call's own timeout.
    await page.waitForTimeout(1_000);
    expect(await send.isDisabled()).toBe(true);
    release();
    await expect.poll(() => send.isDisabled(), LIVE_WAIT).toBe(false);
    await send.click();
    await page.getByText('Every house of Gaocheng Broiler Farm').waitFor();
    await context.close();
  });

  it('sends to a farm of 6 houses with one offline: 5 applied and 1 waiting', async () => {
    const farm = gatewaysOf('Gaocheng Broiler Farm');
    expect(farm).toHaveLength(6);
    const down = farm[5]!;
    sim.gateway(down.networkId)!.holdOffline(true);
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    await openHouse(page, farm[0]!.houseId);
    await expect
      .poll(async () => {
        const state = await server.roost.database.query<{ online: boolean }>(
          'select online from house_state where house_id = $1',
          [down.houseId],
        );
        return state[0]?.online;
      }, LIVE_WAIT)
      // No row yet (it never connected) is offline too.
      .not.toBe(true);
    await page.getByTestId('param-alarm_nh3_high').locator('input').fill('30');
    await page.getByTestId('envcontrol-send').click();
    await page.getByText('Every house of Gaocheng Broiler Farm').click();
    await page.getByTestId('envcontrol-confirm').click();
    await page.screenshot({ path: `${SHOTS}/farm-sent-en-1440.png` });
    const states = async () => {
      const rows = await server.roost.database.query<{ state: string }>(
        `select c.state from gateway_commands c where c.house_id = any($1::int[]) and c.params ? 'alarm_nh3_high'`,
        [farm.map((g) => g.houseId)],
      );
      return rows.map((r) => r.state).sort();
    };
    await expect
      .poll(states, LIVE_WAIT)
      .toEqual(['applied', 'applied', 'applied', 'applied', 'applied', 'queued']);
    await openHouse(page, down.houseId).catch(() => undefined);
    await expect.poll(() => stateOfNewest(page), LIVE_WAIT).toBe('queued');
    sim.gateway(down.networkId)!.holdOffline(false);
    await context.close();
  });

  it('shows a command its gateway never answered as expired, with the reason, in en and zh', async () => {
    const silent = gatewaysOf('Weifang Broiler Farm')[3]!;
    const en = await openSignedIn(browser, server.url, 'admin');
    const zh = await openSignedIn(browser, server.url, 'company', { language: 'zh' });
    await Promise.all([openHouse(en.page, silent.houseId), openHouse(zh.page, silent.houseId)]);
    // The controller stays silent: the command waits, then runs out of time.
    sim.gateway(silent.networkId)!.holdOffline(true);
    const login = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD, code: 'x' }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    // The shortest expiry the API takes, so the test sees the end of the wait.
    const sent = await fetch(`${server.url}/api/envcontrol/send`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({
        houseIds: [silent.houseId],
        params: { light_hours: 19 },
        expiresInSeconds: 5,
      }),
    });
    expect(sent.status).toBe(200);
    for (const page of [en.page, zh.page])
      await expect.poll(() => stateOfNewest(page), LIVE_WAIT).toBe('expired');
    expect(await en.page.getByTestId('command-state').first().textContent()).toBe('Expired');
    expect(await en.page.getByTestId('command-result').first().textContent()).toBe(
      'No answer in time',
    );
    expect(await zh.page.getByTestId('command-state').first().textContent()).toBe('已过期');
    await en.page.screenshot({ path: `${SHOTS}/expired-en-1440.png`, fullPage: true });
    await zh.page.screenshot({ path: `${SHOTS}/expired-zh-1440.png`, fullPage: true });
    sim.gateway(silent.networkId)!.holdOffline(false);
    await en.context.close();
    await zh.context.close();
  });

  it('shows parameters read-only to a user without remote configuration, in both sizes and languages', async () => {
    const house = gatewaysOf('Weifang Broiler Farm')[3]!;
    for (const language of ['en', 'zh'] as const) {
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const { context, page } = await openSignedIn(browser, server.url, 'farm', {
          language,
          viewport,
        });
        await openHouse(page, house.houseId);
        await page.getByTestId('envcontrol-readonly').waitFor();
        expect(await page.getByTestId('param-heat_offset').locator('input').count()).toBe(0);
        expect(await page.getByTestId('envcontrol-send').count()).toBe(0);
        await page.screenshot({
          path: `${SHOTS}/readonly-${language}-${viewport.width}.png`,
          fullPage: viewport.width > 400,
        });
        await context.close();
      }
    }
  });
});
