import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
const LONG_NAME = 'Gaocheng Broiler Farm of North China Broilers Co., east site';

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
  // A farm whose name no card can hold on one line.
  await server.roost.database.query(
    `update farms set name = '${LONG_NAME}' where name = 'Gaocheng Broiler Farm'`,
  );
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Shown {
  text: string;
  cut: boolean;
  title: string;
  linkTitle: string;
}

/** Each card's farm name: its text, whether it is cut, and the names its hover shows. */
function farmNames(page: Page): Promise<Shown[]> {
  return page.getByTestId('house-card').evaluateAll((cards) =>
    cards.map((card) => {
      const farm = card.querySelector<HTMLElement>('[data-testid="card-farm"]');
      const link = card.querySelector<HTMLElement>('[data-testid="card-name"]');
      return {
        text: farm?.textContent ?? '',
        cut: farm ? farm.scrollWidth > farm.clientWidth : true,
        title: farm?.title ?? '',
        linkTitle: link?.title ?? '',
      };
    }),
  );
}

/** Stat figures wider than their card. */
function overflowingFigures(page: Page) {
  return page.getByTestId('stat-value').evaluateAll((values) =>
    values
      .filter((v) => {
        const card = v.parentElement!.getBoundingClientRect();
        return v.scrollWidth > v.clientWidth || v.getBoundingClientRect().right > card.right;
      })
      .map((v) => v.textContent),
  );
}

describe('farm and house names, stat figures', () => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    it(`can always be read at ${width} px`, async () => {
      const { context, page } = await openSignedIn(browser, server.url, 'admin', {
        viewport: { width, height },
      });
      await page.goto(`${server.url}/shack/status/overview`);
      await page.getByTestId('house-card').first().waitFor();
      const names = await farmNames(page);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        // A name the card cuts is whole on hover, on the name itself and on the card's link.
        if (name.cut) expect(name.title).toBe(name.text);
        expect(name.linkTitle).toContain(name.text);
      }
      // Names of an ordinary length are not cut at all, on a phone either.
      expect(names.filter((n) => n.cut && n.text !== LONG_NAME)).toEqual([]);

      await page.goto(`${server.url}/dashboard`);
      await expect
        .poll(() => page.getByTestId('stat-alive').getByTestId('stat-value').innerText())
        .toMatch(/\d/);
      expect(await overflowingFigures(page)).toEqual([]);
      await context.close();
    });
  }
});
