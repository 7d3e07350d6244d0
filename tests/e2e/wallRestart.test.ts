import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { freePort } from '../helpers/processes';
import { launchBrowser, signIn, startServer, type TestServer } from './harness';
import { collectErrors, openWall } from './wallHelpers';

/**
 * A generous limit for the wall to be correct again after the server's return, without a
 * reload: the test waits on what the page shows; how fast it recovers is not asserted here.
 */
const RECOVERY_WAIT_MS = 60_000;
/** The banner shows once the data is a minute old (STALE_AFTER_MS), plus a tick of the clock. */
const STALE_WAIT_MS = 75_000;

let server: TestServer | null = null;
let browser: Browser;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  // On disk, so the session and the demo data survive the restart; the same port, so the page
  // finds the server where it was.
  dataDir = mkdtempSync(path.join(tmpdir(), 'roost-wall-'));
  env = {
    DATA_DIR: path.join(dataDir, 'db'),
    PORT: String(await freePort()),
    ROOST_SIMULATOR: 'off',
  };
  [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('alarm overview wall through a server restart', () => {
  it(
    'shows the stale banner while the server is down, then reconnects by itself and is correct again without a reload',
    { timeout: 200_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
      const page = await context.newPage();
      // While the server is down the browser itself reports the refused socket handshakes.
      const errors = collectErrors(page, [/WebSocket connection to .* failed/]);
      await signIn(page, server!.url, 'admin');
      await openWall(page, server!.url);
      const freshness = page.getByTestId('wall-freshness');
      await expect
        .poll(() => freshness.getAttribute('data-live-state'), { timeout: 15_000 })
        .toBe('live');
      await page.evaluate(() => ((window as unknown as { wallMarker: boolean }).wallMarker = true));

      const url = server!.url;
      await server!.stop();
      server = null;
      await page.getByTestId('wall-stale').waitFor({ timeout: STALE_WAIT_MS });
      expect(await freshness.getAttribute('data-live-state')).not.toBe('live');

      server = await startServer(env);
      expect(server.url).toBe(url);
      await expect
        .poll(() => freshness.getAttribute('data-live-state'), {
          timeout: RECOVERY_WAIT_MS,
          interval: 200,
        })
        .toBe('live');
      await page
        .getByTestId('wall-stale')
        .waitFor({ state: 'detached', timeout: RECOVERY_WAIT_MS });
      expect(await page.getByTestId('wall-count-total').getByTestId('value').textContent()).toBe(
        '42',
      );
      // No reload happened: the marker set before the outage is still there.
      expect(
        await page.evaluate(() => (window as unknown as { wallMarker?: boolean }).wallMarker),
      ).toBe(true);
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});

describe('alarm overview wall opened while the server is busy', () => {
  it(
    'draws its farms once the server answers, after a first read of them refused as busy',
    { timeout: 200_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
      const page = await context.newPage();
      const errors = collectErrors(page);
      await signIn(page, server!.url, 'admin');
      // The server's own busy answer (http.busy, a full database pool), to the wall's first
      // read of its farms only; every later read reaches the server.
      let refused = 0;
      await page.route('**/api/wall/map', async (route) => {
        if (refused > 0) return route.continue();
        refused += 1;
        await route.fulfill({
          status: 503,
          headers: { 'retry-after': '5' },
          contentType: 'application/json',
          body: JSON.stringify({
            code: 503,
            msg: 'The server is busy, try again shortly',
            data: null,
          }),
        });
      });
      // No reload, no reconnect, no alarm: only the wall's own retry reads the farms again.
      await openWall(page, server!.url);
      expect(refused).toBe(1);
      expect(await page.getByTestId('wall-count-total').getByTestId('value').textContent()).toBe(
        '42',
      );
      expect(
        await page.locator('[data-testid="wall-states"] li[data-farm-id]').count(),
      ).toBeGreaterThan(0);
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
