import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { launchBrowser, signIn, startServer, type TestServer } from './harness';
import { collectErrors, MAP_DRAWN_TIMEOUT_MS } from './wallHelpers';

const WALL_VIEWPORT = { width: 1920, height: 1080 };
/** Panels the link leaves out: none of their test ids may be on its wall. */
const HIDDEN = ['wall-today', 'wall-ranking', 'wall-legend', 'wall-production', 'wall-ticker'];
/** Long enough for a whole round of the tour (four stops of 10 s), to meet a stop again. */
const STOP_WAIT = { timeout: 50_000, interval: 200 } as const;

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a kiosk link with its own panels and tour', () => {
  it(
    'an administrator chooses three panels and a tour; the link opens with exactly those panels, tours the map, the worst farms and the night panel in order, and a click pauses it',
    { timeout: 300_000 },
    async () => {
      // Two farms in alarm: the first with three open alarms, the second with one.
      const db = server.roost.database;
      const farms = await db.query<{ id: number; name: string; house: number }>(
        `select f.id, f.name, min(h.id)::int as house from farms f join houses h on h.farm_id = f.id
         where f.level = 'farm' and f.longitude is not null group by f.id, f.name order by f.id limit 2`,
      );
      expect(farms).toHaveLength(2);
      await db.query(`update house_state set alarm_count = 0`);
      const marked = await db.query<{ house_id: number }>(
        `insert into house_state (house_id, alarm_count) values ($1, 3), ($2, 1)
         on conflict (house_id) do update set alarm_count = excluded.alarm_count
         returning house_id`,
        [farms[0]!.house, farms[1]!.house],
      );
      expect(marked).toHaveLength(2);

      const adminContext = await browser.newContext({ viewport: WALL_VIEWPORT });
      const admin = await adminContext.newPage();
      const adminErrors = collectErrors(admin);
      await signIn(admin, server.url, 'admin');
      await admin.goto(`${server.url}/alarmOverview/index`);
      await admin.getByTestId('wall-frame-kiosk').click();
      await admin.getByTestId('kiosk-name').fill('Night desk');
      // Blueprint's checkboxes and radios: the label is what a user clicks.
      const label = (testId: string) => admin.locator('label', { has: admin.getByTestId(testId) });
      for (const off of ['kiosk-left-today', 'kiosk-left-ranking', 'kiosk-left-legend'])
        await label(off).click();
      for (const off of ['kiosk-right-production', 'kiosk-right-ticker']) await label(off).click();
      // The night panel moves above the counters.
      await admin.getByTestId('kiosk-left-night-up').click();
      await label('kiosk-tour-on').click();
      await admin.locator('#kiosk-tour-seconds').fill('10');
      await label('kiosk-stop-night').click();
      await admin.getByTestId('kiosk-create').click();
      const address = await admin.getByTestId('kiosk-url').inputValue();
      const row = admin.locator('[data-testid="kiosk-list"] tr', { hasText: 'Night desk' });
      await row.waitFor();
      expect(await row.getByTestId('kiosk-display-summary').textContent()).toBe(
        '3 panels, tour every 10 s',
      );

      const kioskContext = await browser.newContext({ viewport: WALL_VIEWPORT });
      const kiosk = await kioskContext.newPage();
      const kioskErrors = collectErrors(kiosk);
      // Every stop the tour makes, from the page's first moment: a loaded machine that draws
      // the map slowly must not miss a 10-second stop between two looks.
      // Each stop is written with what the wall spotlit at that moment ("night=night" when
      // the night panel is lifted), as the next stop may come before a test's next look.
      await kiosk.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { tourStops: string[] }).tourStops = seen;
        new MutationObserver(() => {
          const wall = document.querySelector('[data-tour-stop]');
          const stop = wall?.getAttribute('data-tour-stop');
          if (!stop) return;
          const lifted = document.querySelector('[data-spotlit="true"] [data-testid]');
          const spot = `${wall!.getAttribute('data-spotlight') ?? '-'}/${lifted?.getAttribute('data-testid') ?? '-'}`;
          const entry = stop === 'night' ? `${stop}=${spot}` : stop;
          if (seen.at(-1) !== entry) seen.push(entry);
        }).observe(document, { subtree: true, attributes: true, childList: true });
      });
      const stops = () =>
        kiosk.evaluate(() => (window as unknown as { tourStops: string[] }).tourStops.slice(0, 4));
      await kiosk.goto(address);
      await kiosk
        .locator('[data-testid="wall-map"][data-map-loaded="true"]')
        .waitFor({ timeout: MAP_DRAWN_TIMEOUT_MS });
      const slots = await kiosk
        .locator('[data-panel]')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-panel')));
      expect(slots).toEqual(['night', 'counters', 'alarms']);
      for (const id of ['wall-night', 'wall-counters', 'wall-alarms'])
        expect(await kiosk.getByTestId(id).count(), id).toBe(1);
      for (const id of HIDDEN) expect(await kiosk.getByTestId(id).count(), id).toBe(0);

      // The tour: the whole map, then the worst farm, the next, then the night panel spotlit.
      const drilled = () =>
        kiosk
          .getByTestId('drill-title')
          .textContent({ timeout: 500 })
          .catch(() => null);
      const spotlight = () => kiosk.getByTestId('screen-home').getAttribute('data-spotlight');
      await expect
        .poll(stops, { timeout: 60_000, interval: 500 })
        .toEqual([
          'overview',
          `farm ${farms[0]!.id}`,
          `farm ${farms[1]!.id}`,
          'night=night/wall-night',
        ]);

      // A touch while the night panel is spotlit holds the tour and says so; the spotlight
      // gives the wall back. Checked and touched in one step in the page, since on a loaded
      // machine the tour may move on between two steps of the test.
      await expect
        .poll(
          () =>
            kiosk.evaluate(() => {
              const wall = document.querySelector('[data-testid="screen-home"]');
              if (wall?.getAttribute('data-spotlight') !== 'night') return false;
              document
                .querySelector('[data-testid="kiosk-badge"]')!
                .dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
              return true;
            }),
          STOP_WAIT,
        )
        .toBe(true);
      await kiosk.getByTestId('tour-paused').waitFor();
      expect(await kiosk.getByTestId('tour-paused').textContent()).toContain('Tour paused');
      expect(await spotlight()).toBeNull();
      // Longer than a stop: still paused, still where the click left it.
      await kiosk.waitForTimeout(11_000);
      expect(await kiosk.getByTestId('tour-paused').count()).toBe(1);
      expect(await spotlight()).toBeNull();
      expect(await drilled()).toBeNull();

      await adminContext.close();
      await kioskContext.close();
      expect(adminErrors).toEqual([]);
      expect(kioskErrors).toEqual([]);
    },
  );
});
