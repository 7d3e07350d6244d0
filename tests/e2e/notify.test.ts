import { mkdirSync } from 'node:fs';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySteps } from '../../server/alarms/lifecycle';
import { SEVERITY } from '../../server/alarms/rules';
import { AlarmService } from '../../server/alarms/service';
import { ackLinkSecret, signAckToken } from '../../server/notify/ackLink';
import type { AlarmCause } from '../../src/contract/alarms';
import { LIVE_WAIT, launchBrowser, signIn, startServer, type TestServer } from './harness';

const SHOTS = process.env.NOTIFY_SHOTS_DIR ?? '/work/shots/notify';
let server: TestServer;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Raises an alarm through the alarm service of the running server (live hub included). */
async function raise(houseName: string, cause: AlarmCause) {
  const db = server.roost.database;
  const [house] = await db.query<{ id: number; farm_id: number }>(
    `select h.id, h.farm_id from houses h join farms f on f.id = h.farm_id
     where f.name = 'Weifang Broiler Farm' and h.name = $1`,
    [houseName],
  );
  const service = new AlarmService(db, server.roost.events);
  const [change] = await service.change(({ db }) =>
    applySteps(db, { houseId: house!.id, farmId: house!.farm_id }, [
      {
        kind: 'raise',
        cause,
        subject: 'temperature',
        severity: SEVERITY[cause],
        value: 35.2,
        limit: 32,
        text: null,
        at: Date.now(),
      },
    ]),
  );
  const [phone] = await db.query<{ id: number }>(
    `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes,
       closable, alarm_type, delay_minutes, status, notice_types)
     values ($1, null, '13800000077', '00:00', '00:00', 'daily', 0, true, 'message', 0, 'closed', '["block"]') returning id`,
    [house!.farm_id],
  );
  const secret = await ackLinkSecret(db);
  const token = (expires = Date.now() + 3_600_000) =>
    signAckToken(secret, change!.alarm.id, phone!.id, new Date(expires));
  return { id: change!.alarm.id, token };
}

async function phone(language: 'en' | 'zh'): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: language === 'zh' ? 'zh-CN' : 'en-US',
  });
  const host = new URL(server.url).hostname;
  await context.addCookies([{ name: 'language', value: language, domain: host, path: '/' }]);
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  return page;
}

async function console(user: string, language: 'en' | 'zh'): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: language === 'zh' ? 'zh-CN' : 'en-US',
  });
  const host = new URL(server.url).hostname;
  await context.addCookies([{ name: 'language', value: language, domain: host, path: '/' }]);
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await signIn(page, server.url, user);
  await page.goto(`${server.url}/alarm/list`);
  await expect
    .poll(() => page.getByTestId('layout').getAttribute('data-live'), { timeout: 15_000 })
    .toBe('live');
  return page;
}

describe('the acknowledge link on a phone', () => {
  it('opens at 390×844 without a sign-in, acknowledges with one tap and a comment, and every open console shows it', async () => {
    const farm = await console('farm', 'en');
    const shack = await console('shack', 'en');
    const alarm = await raise('House 2', 'temperatureHigh');
    const row = (page: Page, state: string) =>
      page
        .locator(`tr[data-state="${state}"]`, { hasText: 'Temperature too high' })
        .filter({ hasText: 'House 2' });
    await row(farm, 'active').waitFor({ timeout: LIVE_WAIT.timeout });
    await row(shack, 'active').waitFor({ timeout: LIVE_WAIT.timeout });

    const page = await phone('en');
    await page.goto(`${server.url}/ack/${alarm.token()}`);
    await page.getByRole('heading', { name: 'Temperature too high' }).waitFor();
    await expect.poll(() => page.getByText('Weifang Broiler Farm / House 2').count()).toBe(1);
    // Nothing overflows the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.screenshot({ path: `${SHOTS}/ack-390-en.png` });
    await page.getByLabel('Comment (optional)').fill('Opened the side inlets');
    await page.getByRole('button', { name: 'Acknowledge' }).tap();
    await page.getByTestId('ack-done').waitFor();
    expect(await page.getByTestId('ack-done').textContent()).toContain(
      'Acknowledged by 13800000077',
    );
    expect(await page.getByTestId('ack-done').textContent()).toContain('Opened the side inlets');
    await page.screenshot({ path: `${SHOTS}/ack-390-en-done.png` });

    await row(farm, 'acknowledged').waitFor({ timeout: LIVE_WAIT.timeout });
    await row(shack, 'acknowledged').waitFor({ timeout: LIVE_WAIT.timeout });
    await farm.screenshot({ path: `${SHOTS}/console-1440-en-acknowledged.png` });
  });

  it('refuses a tampered link and an expired one, in the page language', async () => {
    const alarm = await raise('House 3', 'temperatureLow');
    const good = alarm.token();
    const tampered = good.replace(/^\d+/, String(alarm.id + 1000));
    const page = await phone('en');
    await page.goto(`${server.url}/ack/${tampered}`);
    await page.getByTestId('ack-refused').waitFor();
    expect(await page.getByTestId('ack-refused').textContent()).toContain(
      'This acknowledge link is not valid.',
    );
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/ack-390-en-tampered.png` });

    const zh = await phone('zh');
    await zh.goto(`${server.url}/ack/${alarm.token(Date.now() - 1000)}`);
    await zh.getByTestId('ack-refused').waitFor();
    expect(await zh.getByTestId('ack-refused').textContent()).toContain('该确认链接已过期');
    await zh.screenshot({ path: `${SHOTS}/ack-390-zh-expired.png` });

    await zh.goto(`${server.url}/ack/${good}`);
    await zh.getByRole('heading', { name: '温度过低' }).waitFor();
    await zh.screenshot({ path: `${SHOTS}/ack-390-zh.png` });
    await zh.getByRole('button', { name: '确认报警' }).tap();
    await zh.getByTestId('ack-done').waitFor();
    await zh.screenshot({ path: `${SHOTS}/ack-390-zh-done.png` });
    const wide = await phone('zh');
    await wide.setViewportSize({ width: 1440, height: 900 });
    await wide.goto(`${server.url}/ack/${good}`);
    await wide.getByTestId('ack-done').waitFor();
    await wide.screenshot({ path: `${SHOTS}/ack-1440-zh-done.png` });
    expect(pageErrors).toEqual([]);
  });
});
