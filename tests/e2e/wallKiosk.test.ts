import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type WebSocket } from 'playwright-core';
import { LIVE_WAIT, launchBrowser, signIn, startServer, type TestServer } from './harness';
import { collectErrors, MAP_DRAWN_TIMEOUT_MS, pixelOf } from './wallHelpers';

const WALL_VIEWPORT = { width: 1920, height: 1080 };

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('wall kiosk link', () => {
  it(
    'an administrator creates a link for chosen farms; the wall opens without a sign-in, read-only and scoped; revoking it stops the wall at once and closes its live connection',
    { timeout: 400_000 },
    async () => {
      const [farm] = await server.roost.database.query<{
        id: number;
        name: string;
        longitude: number;
        latitude: number;
      }>(
        `select id, name, longitude, latitude from farms where level = 'farm' order by id limit 1`,
      );

      // The administrator, in the console's alarm overview.
      const adminContext = await browser.newContext({ viewport: WALL_VIEWPORT });
      const admin = await adminContext.newPage();
      const adminErrors = collectErrors(admin);
      await signIn(admin, server.url, 'admin');
      await admin.goto(`${server.url}/alarmOverview/index`);
      await admin.getByTestId('wall-frame-kiosk').click();
      await admin.getByTestId('kiosk-name').fill('Control room east');
      // Blueprint's radios and checkboxes: the label is what a user clicks.
      await admin.locator('label', { has: admin.getByTestId('kiosk-scope-chosen') }).click();
      await admin.locator('[data-testid="kiosk-farms"] label', { hasText: farm!.name }).click();
      await admin.getByTestId('kiosk-create').click();
      const address = await admin.getByTestId('kiosk-url').inputValue();
      expect(address).toMatch(/\/screenDatav\/kiosk\?language=1#rk_/);
      const row = admin.locator('[data-testid="kiosk-list"] tr', { hasText: 'Control room east' });
      await row.waitFor();
      expect(await row.textContent()).toContain(farm!.name);

      // The wall screen: another browser, nobody signed in.
      const kioskContext = await browser.newContext({ viewport: WALL_VIEWPORT });
      const kiosk = await kioskContext.newPage();
      const kioskErrors = collectErrors(kiosk);
      const sockets: WebSocket[] = [];
      kiosk.on('websocket', (ws) => sockets.push(ws));
      await kiosk.goto(address);
      await kiosk
        .locator('[data-testid="wall-map"][data-map-loaded="true"][data-deck-rendered="true"]')
        .waitFor({ timeout: MAP_DRAWN_TIMEOUT_MS });
      await kiosk
        .locator('[data-testid="wall-freshness"][data-live-state="live"]')
        .waitFor({ timeout: 30_000 });
      expect(new URL(kiosk.url()).pathname).toBe('/screenDatav/kiosk');
      expect(await kiosk.getByTestId('kiosk-badge').textContent()).toBe('Read-only wall');
      // Only the chosen farm, its houses counted.
      const listed = kiosk.locator('[data-testid="wall-states"] li[data-farm-id]');
      await expect.poll(() => listed.count()).toBe(1);
      expect(await listed.first().getAttribute('data-farm-id')).toBe(String(farm!.id));
      const houses = await server.roost.database.query<{ n: number }>(
        `select count(*)::int as n from houses where farm_id = $1`,
        [farm!.id],
      );
      expect(await kiosk.getByTestId('wall-count-total').getByTestId('value').textContent()).toBe(
        String(houses[0]!.n),
      );
      // The night's story reads through the link too (its request is on the kiosk's list).
      await kiosk.getByTestId('night-chart').waitFor({ timeout: LIVE_WAIT.timeout });
      // Drilling to the farm lists its houses, but they lead nowhere (no console monitor).
      const point = await pixelOf(kiosk, [farm!.longitude, farm!.latitude]);
      await kiosk.mouse.click(point.x, point.y);
      await expect.poll(() => kiosk.getByTestId('drill-title').textContent()).toBe(farm!.name);
      const house = kiosk.getByTestId('drill-house').first();
      expect(await house.evaluate((el) => el.tagName)).toBe('DIV');
      await house.click();
      expect(new URL(kiosk.url()).pathname).toBe('/screenDatav/kiosk');
      const live = sockets.filter((ws) => !ws.isClosed());
      expect(live.length).toBeGreaterThan(0);

      // Revoked in the console: the server closes the wall's socket and the wall says so.
      await row.getByTestId('kiosk-revoke').click();
      await admin.locator('.bp6-alert-footer .bp6-intent-danger').click();
      await row.waitFor({ state: 'detached' });
      await expect.poll(() => live.every((ws) => ws.isClosed()), LIVE_WAIT).toBe(true);
      await kiosk.getByTestId('kiosk-ended').waitFor({ timeout: LIVE_WAIT.timeout });
      expect(await kiosk.getByTestId('kiosk-ended').textContent()).toMatch(/revoked/);
      expect(await kiosk.getByTestId('wall-map').count()).toBe(0);
      // A reload does not bring it back.
      await kiosk.reload();
      await kiosk.getByTestId('kiosk-ended').waitFor({ timeout: 30_000 });

      await adminContext.close();
      await kioskContext.close();
      expect(adminErrors).toEqual([]);
      expect(kioskErrors).toEqual([]);
    },
  );
});
