import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import mqtt, { type MqttClient } from 'mqtt';
import { hashToken } from '../../server/auth/tokens';
import { disableNagle } from '../../server/mqtt/noDelay';
import { freePort } from '../helpers/processes';
import {
  confirmSave,
  launchBrowser,
  LIVE_WAIT,
  signIn,
  startServer,
  type TestServer,
} from './harness';

let server: TestServer;
let browser: Browser;
const clients: MqttClient[] = [];
/** What the consoles logged as errors; the viewer's refused acknowledgement (403) is expected. */
const pageErrors: string[] = [];
const TOKEN = 'e2e-alarm-token';

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    // No simulated gateways: the only readings are the ones this test publishes.
    startServer({ MQTT_PORT: String(mqttPort), ROOST_SIMULATOR: 'off' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  for (const client of clients) client.end(true);
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

async function newContext(locale = 'en-US'): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1400, height: 900 }, locale });
}

/** A signed-in console on `path`, once its live connection is up (so no event is missed). */
async function openAs(user: string, path: string, locale = 'en-US'): Promise<Page> {
  const page = await (await newContext(locale)).newPage();
  watchErrors(page);
  await signIn(page, server.url, user);
  return goLive(page, path);
}

async function goLive(page: Page, path: string): Promise<Page> {
  await page.goto(`${server.url}${path}`);
  await expect
    .poll(() => page.getByTestId('layout').getAttribute('data-live'), { timeout: 15_000 })
    .toBe('live');
  return page;
}

/** The badge's number (0 when it is not shown) and how many of those await acknowledgement. */
async function badge(page: Page): Promise<{ open: number; waiting: number }> {
  const element = page.getByTestId('alarm-badge');
  if ((await element.count()) === 0) return { open: 0, waiting: 0 };
  return {
    open: Number(await element.innerText()),
    waiting: Number(await element.getAttribute('data-unacknowledged')),
  };
}

/** Marks the document, so a later check can tell that the page was not reloaded. */
const mark = (page: Page) => page.evaluate(() => ((window as { e2eMark?: true }).e2eMark = true));
const stillMarked = (page: Page) =>
  page.evaluate(() => (window as { e2eMark?: true }).e2eMark === true);

/** A demo house's gateway with a known token, connected to the server's embedded broker. */
async function connectGateway(farm: string, house: string) {
  const db = server.roost.database;
  const [row] = await db.query<{ house_id: number; network_id: string }>(
    `select h.id as house_id, g.network_id from houses h join farms f on f.id = h.farm_id
     join gateways g on g.house_id = h.id where f.name = $1 and h.name = $2`,
    [farm, house],
  );
  if (!row) throw new Error(`no demo house ${house}`);
  // Raise and clear at once: this test is about the path to the screen, not the rule timing.
  await db.query(
    `insert into alarm_limits (house_id, limits) values ($1, '{"minDurationSeconds":0,"clearHoldSeconds":0}')
     on conflict (house_id) do update set limits = excluded.limits`,
    [row.house_id],
  );
  await db.query('update gateways set token_hash = $1 where network_id = $2', [
    hashToken(TOKEN),
    row.network_id,
  ]);
  server.roost.ingest.directory.forget(row.network_id);
  const client = mqtt.connect(`mqtt://127.0.0.1:${server.roost.mqttPort}`, {
    username: row.network_id,
    password: TOKEN,
    clientId: `e2e-alarm-${row.network_id}`,
    reconnectPeriod: 0,
  });
  disableNagle(client);
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  const publish = (metrics: Record<string, number>) =>
    client.publishAsync(
      `roost/v1/${row.network_id}/telemetry`,
      JSON.stringify({ ts: Date.now(), metrics }),
      { qos: 1 },
    );
  return { houseId: row.house_id, publish };
}

describe('alarms in the console', () => {
  it('a reading over a limit, published over MQTT, raises the badge and shows in the list and on the house card; acknowledging it from the list updates every open console; only canOperate may', async () => {
    const { houseId, publish } = await connectGateway('Weifang Broiler Farm', 'House 3');
    // The farm manager works from the alarm list; the house manager of houses 1–3 has the
    // overview and the list open in two tabs of another browser.
    const farm = await openAs('farm', '/alarm/list');
    const shackOverview = await openAs('shack', '/shack/status/overview');
    const shackList = await goLive(await shackOverview.context().newPage(), '/alarm/list');
    watchErrors(shackList);
    const consoles = [farm, shackOverview, shackList];
    const before = await Promise.all(consoles.map(badge));
    await Promise.all(consoles.map(mark));
    const card = shackOverview.locator(`[data-testid="house-card"][data-house-id="${houseId}"]`);
    await expect.poll(() => card.getAttribute('data-status')).not.toBe('alarm');

    await publish({ co2: 15_000 });
    await farm.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="alarm-badge"]')?.textContent ?? 0) > n,
      before[0]!.open,
      { timeout: LIVE_WAIT.timeout, polling: 50 },
    );
    // The count and the number waiting for an answer arrive separately: wait for both.
    await expect
      .poll(() => badge(farm))
      .toEqual({
        open: before[0]!.open + 1,
        waiting: before[0]!.waiting + 1,
      });
    const row = (page: Page, state: string) =>
      page.locator(`tr[data-state="${state}"]`, { hasText: 'CO2 too high' }).filter({
        hasText: 'House 3',
      });
    await row(farm, 'active').waitFor();
    await row(shackList, 'active').waitFor();
    await expect.poll(() => card.getAttribute('data-status')).toBe('alarm');
    await expect.poll(() => card.getByTestId('card-alarm').textContent()).toContain('CO2 15000');
    for (const [i, page] of [shackOverview, shackList].entries())
      await expect
        .poll(() => badge(page))
        .toEqual({ open: before[i + 1]!.open + 1, waiting: before[i + 1]!.waiting + 1 });
    await farm.screenshot({ path: '.tmp/alarm-list-en.png' });

    // A user without the operation permission sees the alarm but is not offered the button,
    // and the API refuses them too.
    await server.roost.database.query(
      `update users set can_operate = false where username = 'area'`,
    );
    const viewer = await openAs('area', '/alarm/list');
    await row(viewer, 'active').waitFor();
    expect(await viewer.locator('[data-testid^="ack-"]').count()).toBe(0);
    const alarmId = Number(
      (await row(viewer, 'active').getAttribute('data-testid'))?.replace('alarm-', ''),
    );
    const viewerToken = (await viewer.context().cookies()).find(
      (c) => c.name === 'Admin-Token',
    )?.value;
    const refused = await fetch(`${server.url}/api/alarm/acknowledge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${viewerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: alarmId }),
    });
    expect(refused.status).toBe(403);

    await row(farm, 'active').getByRole('button', { name: 'Acknowledge' }).click();
    await farm.locator('.bp6-alert').getByRole('button', { name: 'Acknowledge' }).click();
    await row(farm, 'acknowledged').waitFor();

    // Every other open console follows without a reload: the row's state, and the badge, which
    // still counts the open alarm but no longer as waiting for an answer.
    await row(shackList, 'acknowledged').waitFor();
    await row(viewer, 'acknowledged').waitFor();
    for (const [i, page] of consoles.entries())
      await expect
        .poll(() => badge(page))
        .toEqual({ open: before[i]!.open + 1, waiting: before[i]!.waiting });
    // Acknowledged is not cleared: the card keeps showing what is wrong in the house, and now
    // that someone answered it.
    expect(await card.getAttribute('data-status')).toBe('alarm');
    await expect
      .poll(() => card.getByTestId('card-alarm').getAttribute('data-acknowledged'))
      .toBe('true');
    expect(await card.getByTestId('card-alarm').textContent()).toMatch(/CO2 15000.*Acknowledged/);

    // The air recovers: the alarm clears by itself, and every console shows it at once.
    await publish({ co2: 800 });
    await expect.poll(() => card.getAttribute('data-status')).not.toBe('alarm');
    await expect.poll(() => card.getByTestId('card-alarm').textContent()).toBe('');
    for (const [i, page] of consoles.entries())
      await expect.poll(() => badge(page)).toEqual(before[i]);
    for (const page of consoles) expect(await stillMarked(page)).toBe(true);
    expect(pageErrors.filter((e) => !e.includes('403'))).toEqual([]);
    for (const page of [...consoles, viewer])
      await page
        .context()
        .close()
        .catch(() => undefined);
  });

  it('shows the settings pages in both languages', async () => {
    const db = server.roost.database;
    const [farm] = await db.query<{ id: number }>(
      `select id from farms where name = 'Weifang Broiler Farm'`,
    );
    await db.query(
      `insert into alarm_phones (farm_id, phone, period1_start, period1_end, period2_start, period2_end, date_type, repeat_minutes,
         closable, alarm_type, delay_minutes, status, notice_types, description)
       values ($1, '13800000001', '08:00', '12:00', '14:00', '18:00', 'workdays', 30, true, 'phoneAndMessage', 5, 'open', '["block","device"]', 'Shift lead')`,
      [farm!.id],
    );
    for (const locale of ['en-US', 'zh-CN']) {
      const page = await openAs('admin', '/alarm/settings', locale);
      await page
        .getByTestId('page-alarm-settings')
        .locator('td', { hasText: '13800000001' })
        .waitFor();
      await page.screenshot({ path: `.tmp/alarm-settings-${locale.slice(0, 2)}.png` });
      if (locale === 'en-US') {
        // A new entry through the form: the chosen alarm type and the phone come back in its row.
        await page.getByTestId('phone-add').click();
        await page.getByTestId('phone-input').fill('13800000002');
        await page
          .locator('.bp6-dialog .bp6-form-group', { hasText: 'Alarm type' })
          .locator('select')
          .selectOption('message');
        await page.getByTestId('phone-save').click();
        await confirmSave(page);
        await page.locator('.bp6-dialog').waitFor({ state: 'detached' });
        await page
          .locator('tr', { hasText: '13800000002' })
          .filter({ hasText: 'Message' })
          .waitFor();
      }
      if (locale === 'zh-CN') {
        await goLive(page, '/alarm/list');
        // The list's filters in Chinese (this test does not depend on the first one's alarm).
        await expect.poll(() => page.getByTestId('alarm-search').textContent()).toBe('查询');
        await expect
          .poll(() => page.locator('#alarm-state option:checked').textContent())
          .toBe('未清除');
        await page.screenshot({ path: '.tmp/alarm-list-zh.png' });
      }
      await page.context().close();
    }
  });

  it('at 390 px the list fits the phone: a sensor fault reads in words, and Acknowledge and Clear are in view', async () => {
    const { publish } = await connectGateway('Weifang Broiler Farm', 'House 2');
    // The controller's "not connected" sentinel for the indoor temperature: a sensor fault.
    await publish({ temperature: -999 });
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-US',
    });
    const page = await context.newPage();
    watchErrors(page);
    await signIn(page, server.url, 'farm');
    await goLive(page, '/alarm/list');
    const row = page
      .locator('tr[data-state="active"]', { hasText: 'Sensor fault' })
      .filter({ hasText: 'House 2' });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Sensor fault · Indoor temperature (Not connected)');
    expect(text).not.toContain('notConnected');
    // The page itself does not scroll sideways; the table may, inside its own region.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.screenshot({ path: '.tmp/alarm-list-390-en.png' });
    for (const name of ['Acknowledge', 'Clear']) {
      const button = row.getByRole('button', { name });
      const box = await button.boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(390);
      // Nothing lies over it: a tap at its centre reaches the button.
      const hit = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent ?? null,
        [box!.x + box!.width / 2, box!.y + box!.height / 2],
      );
      expect(hit, name).toBe(name);
    }
    await row.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => row.count()).toBe(0);
    await context.close();
    expect(pageErrors.filter((e) => !e.includes('403'))).toEqual([]);
  });
});
