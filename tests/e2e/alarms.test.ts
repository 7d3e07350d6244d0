import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { hashToken } from '../../server/auth/tokens';
import { launchBrowser, signIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
const TOKEN = 'e2e-alarm-token';

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openAs(user: string, path: string, locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('403'))
      throw new Error(`console error: ${m.text()}`);
  });
  await signIn(page, server.url, user);
  await page.goto(`${server.url}${path}`);
  return page;
}

const badgeCount = async (page: Page) => {
  const badge = page.getByTestId('alarm-badge');
  return (await badge.count()) === 0 ? 0 : Number(await badge.innerText());
};

describe('alarms in the console', () => {
  it('a reading over a limit raises the badge within 2 s and shows in the list; acknowledging works, only with canOperate', async () => {
    const db = server.roost.database;
    const [house] = await db.query<{ house_id: number; network_id: string }>(
      `select h.id as house_id, g.network_id from houses h join farms f on f.id = h.farm_id join gateways g on g.house_id = h.id
       where f.name = 'Weifang Broiler Farm' and h.name = 'House 3'`,
    );
    await db.query(
      `insert into alarm_limits (house_id, limits) values ($1, '{"minDurationSeconds":0}')`,
      [house!.house_id],
    );
    await db.query('update gateways set token_hash = $1 where network_id = $2', [
      hashToken(TOKEN),
      house!.network_id,
    ]);

    const page = await openAs('farm', '/alarm/list');
    await page.getByTestId('page-alarm-list').waitFor();
    await page.waitForTimeout(1_000);
    const before = await badgeCount(page);
    const sent = Date.now();
    const res = await fetch(`${server.url}/api/ingest/${house!.network_id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ts: Date.now(), metrics: { co2: 15_000 } }),
    });
    expect(res.status).toBe(200);
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="alarm-badge"]')?.textContent ?? 0) > n,
      before,
      { timeout: 2_000 },
    );
    expect(Date.now() - sent).toBeLessThan(2_000);
    const row = page.locator('tr[data-state="active"]', { hasText: 'CO2 too high' });
    await row.waitFor();
    await page.screenshot({ path: '.tmp/alarm-list-en.png' });

    // A user without the operation permission is not offered the button.
    await db.query(`update users set can_operate = false where username = 'area'`);
    const viewer = await openAs('area', '/alarm/list');
    await viewer.locator('tr[data-state="active"]', { hasText: 'CO2 too high' }).waitFor();
    expect(await viewer.locator('[data-testid^="ack-"]').count()).toBe(0);

    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator('tr[data-state="acknowledged"]', { hasText: 'CO2 too high' }).waitFor();
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
      if (locale === 'zh-CN') {
        await page.goto(`${server.url}/alarm/list`);
        await page.getByTestId('page-alarm-list').waitFor();
        await page.waitForTimeout(500);
        await page.screenshot({ path: '.tmp/alarm-list-zh.png' });
      }
    }
  });
});
