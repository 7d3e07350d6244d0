import { afterAll, beforeAll, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
  const db = server.roost.database;
  const flocks = await db.query<{ id: number; placed: string; head: number }>(
    `select f.id, f.placed_on::text as placed, f.head_count as head from flocks f join houses h on h.id = f.house_id
     join farms fa on fa.id = h.farm_id where fa.name = 'Weifang Broiler Farm' and f.closed_on is null order by h.id limit 6`,
  );
  for (const f of flocks) {
    const days = Math.floor((Date.now() - Date.parse(f.placed)) / 86_400_000);
    for (let i = 0; i < days; i++) {
      if (i === 3) continue; // one missing day
      const day = new Date(Date.parse(f.placed) + i * 86_400_000).toISOString().slice(0, 10);
      const age = 1 + i;
      await db.query(
        `insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg, water_l, body_weight_g)
         values ($1,$2,$3,$4,1,0,$5,$6,$7) on conflict do nothing`,
        [f.id, day, 5 + (i % 4), 3, (f.head * (10 + age * 4.2)) / 1000, (f.head * (20 + age * 8)) / 1000, age % 2 === 0 ? 42 + age * age * 1.3 + age * 12 : null],
      );
    }
  }
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('shots', async () => {
  for (const language of ['en', 'zh'] as const)
    for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      const { page, context } = await openSignedIn(browser, server.url, 'farm', { language, viewport });
      await page.goto(`${server.url}/production/input`);
      await page.getByTestId('house-month').waitFor();
      await page.waitForTimeout(500);
      await page.screenshot({ path: `/work/shots/production/input-${language}-${viewport.width}.png`, fullPage: true });
      await page.goto(`${server.url}/production/flocks`);
      await page.getByTestId('kpi-cards').waitFor();
      await page.locator('#flocks-house').selectOption({ index: 5 });
      await page.getByTestId('kpi-table').waitFor();
      await page.waitForTimeout(800);
      await page.screenshot({ path: `/work/shots/production/flocks-${language}-${viewport.width}.png`, fullPage: true });
      await context.close();
    }
}, 300_000);
