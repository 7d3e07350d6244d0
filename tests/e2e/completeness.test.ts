import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { cutOffDay, morningZone, shanghaiDay } from '../houses/completenessDay';
import { LIVE_WAIT, launchBrowser, openPage, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
let houseId: number;
// Where it is morning now, so the cut hours of yesterday are on the monitor's last-24-hour curve.
const zone = morningZone();
const yesterday = shanghaiDay(-1, zone.timeZone);
const SHOTS = process.env.E2E_SHOTS_DIR;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      ROOST_SIMULATOR: 'off',
      ROOST_TIMEZONE: zone.timeZone,
      ROOST_COMPLETENESS_MIN_PERCENT: '95',
    }),
    launchBrowser(),
  ]);
  const { database, ingest } = server.roost;
  const [row] = await database.query<{ house_id: number; gateway_id: number; network_id: string }>(
    `select h.id as house_id, g.id as gateway_id, g.network_id
     from houses h join farms f on f.id = h.farm_id join gateways g on g.house_id = h.id
     where f.name = 'Weifang Broiler Farm' and h.name = 'House 2'`,
  );
  houseId = row!.house_id;
  await cutOffDay(
    database,
    ingest,
    { gatewayId: row!.gateway_id, networkId: row!.network_id },
    yesterday,
    zone.offsetHours,
  );
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('data completeness on the house monitor', () => {
  for (const language of ['en', 'zh'] as const)
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ])
      it(`shows 91.7 % for the cut-off day, the gap in the curve and the reminder (${language}, ${viewport.width})`, async () => {
        const errors: string[] = [];
        const page = await openPage(
          browser,
          server,
          'admin',
          `/shack/status/monitor?houseId=${houseId}`,
          {
            language,
            viewport,
            errors,
          },
        );
        const day = page.locator(`[data-testid="completeness-day"][data-day="${yesterday}"]`);
        await expect
          .poll(() => day.getByTestId('completeness-share').textContent(), LIVE_WAIT)
          .toBe('91.7 %');
        await expect.poll(() => day.textContent(), LIVE_WAIT).toContain('1320');
        // The temperature curve is drawn as two lines: nothing is drawn across the two hours.
        const line = page.locator(
          '[data-testid="monitor-curves"] [data-testid="chart-line"][data-series="temperature"]',
        );
        await expect
          .poll(async () => ((await line.getAttribute('d')) ?? '').split('M').length - 1, LIVE_WAIT)
          .toBe(2);
        const reminder = page.locator('[data-testid="reminders-completeness"]');
        await expect
          .poll(() => reminder.textContent(), LIVE_WAIT)
          .toContain(
            language === 'en' ? 'Data completeness yesterday 91.7 %' : '昨日数据完整率 91.7%',
          );
        if (SHOTS) {
          await page.getByTestId('monitor-completeness').scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${SHOTS}/monitor-${language}-${viewport.width}.png` });
        }
        await page.context().close();
        expect(errors).toEqual([]);
      });
});
