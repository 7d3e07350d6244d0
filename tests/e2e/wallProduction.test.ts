import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { wallProductionSchema, type WallProduction } from '../../src/contract/wallProduction';
import { grouped, percent } from '../../src/i18n/numbers';
import { launchBrowser, signIn, startServer, type TestServer } from './harness';
import { collectErrors, MAP_DRAWN_TIMEOUT_MS, openWall } from './wallHelpers';

let server: TestServer;
let browser: Browser;
let admin: string;

async function api<T>(method: 'GET' | 'POST', url: string, token: string, body?: object) {
  const res = await fetch(`${server.url}/api${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status, url).toBe(200);
  return ((await res.json()) as { data: T }).data;
}
const production = async (token: string) =>
  wallProductionSchema.parse(await api('GET', '/wall/production', token));

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ ROOST_SIMULATOR: 'off', ROOST_DEMO_HISTORY: 'on' }),
    launchBrowser(),
  ]);
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD, codeId: 'x', code: 'x' }),
  });
  admin = ((await res.json()) as { data: { token: string } }).data.token;
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The panel's figure of row `id`, as shown. */
const shown = (page: Page, id: string) =>
  page.getByTestId(`wall-production-${id}`).getByTestId('value').textContent();

/** Text elements of the panel whose text runs past their box. */
const cutTexts = (page: Page) =>
  page
    .getByTestId('wall-production')
    .evaluate((panel) =>
      [...panel.querySelectorAll('h2, span')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.textContent),
    );

describe('the wall’s production and power', () => {
  for (const { language, width, height, title } of [
    { language: '1', width: 1920, height: 1080, title: "Today's production and power" },
    { language: '0', width: 1280, height: 720, title: '今日生产与能耗' },
  ] as const)
    it(`shows the scope’s day as the server reckons it, whole (${language === '1' ? 'en' : 'zh'}, ${width}×${height})`, async () => {
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      const errors = collectErrors(page);
      await signIn(page, server.url, 'admin');
      await openWall(page, server.url, language);
      const panel = page.getByTestId('wall-production');
      await expect.poll(() => panel.locator('h2').textContent()).toBe(title);
      const p: WallProduction = await production(admin);
      const lang = language === '1' ? 'en' : 'zh';
      // The demo's past has every house's yesterday entered: the mortality is yesterday's until today's is.
      const mortality =
        p.mortality.today.enteredHouses > 0 ? p.mortality.today : p.mortality.yesterday;
      expect(mortality.enteredHouses).toBeGreaterThan(0);
      expect(await shown(page, 'mortality')).toBe(percent(mortality.pct, 2));
      expect(await shown(page, 'feed')).toBe(`${grouped(p.feedKg.yesterday!, lang)} kg`);
      expect(p.energyKwh.today).not.toBeNull();
      expect(await shown(page, 'energy')).toContain('kWh');
      expect(await page.getByTestId('wall-production-mortality').textContent()).toContain(
        lang === 'en'
          ? `${mortality.enteredHouses} of ${mortality.flockHouses} houses entered`
          : `已录入 ${mortality.enteredHouses} / ${mortality.flockHouses} 个栏舍`,
      );
      expect(await cutTexts(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });

  it('turns to today’s mortality once a house enters its day, without a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const page = await context.newPage();
    await signIn(page, server.url, 'admin');
    await openWall(page, server.url, '1');
    const label = page.getByTestId('wall-production-mortality').locator('span').first();
    await expect.poll(() => label.textContent()).toBe('Mortality yesterday');
    const [flock] = await server.roost.database.query<{ id: number }>(
      `select id from flocks where closed_on is null order by id limit 1`,
    );
    await server.roost.database.query(
      `insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg)
       values ($1, $2, 12, 0, 3, 0, 0) on conflict do nothing`,
      [flock!.id, (await production(admin)).day],
    );
    // The wall reads production again on its 30 s refresh (no live event carries a record).
    await expect.poll(() => label.textContent(), { timeout: 60_000 }).toBe('Mortality today');
    const p = await production(admin);
    expect(p.mortality.today).toMatchObject({ losses: 15, enteredHouses: 1 });
    expect(await shown(page, 'mortality')).toBe(percent(p.mortality.today.pct, 2));
    await context.close();
  });

  it('shows a kiosk link the figures of its own farms only', async () => {
    const [farm] = await server.roost.database.query<{ id: number }>(
      `select id from farms where level = 'farm' order by id limit 1`,
    );
    const link = await api<{ token: string }>('POST', '/wall/kiosk/create', admin, {
      name: 'Production wall',
      allFarms: false,
      farmIds: [farm!.id],
    });
    const mine = await production(link.token);
    const all = await production(admin);
    expect(mine.feedKg.yesterday).toBeLessThan(all.feedKg.yesterday!);
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/screenDatav/kiosk?language=1#${link.token}`);
    await page
      .locator('[data-testid="wall-map"][data-map-loaded="true"]')
      .waitFor({ timeout: MAP_DRAWN_TIMEOUT_MS });
    await expect
      .poll(() => shown(page, 'feed'))
      .toBe(`${grouped(mine.feedKg.yesterday!, 'en')} kg`);
    await context.close();
  });
});
