import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchBrowser, signIn, startServer, type TestServer } from './harness';
import { openWall } from './wallHelpers';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The smallest computed font size of any text a person can see on the wall, and where. */
function smallestText(page: Page) {
  return page.evaluate(() => {
    const wall = document.querySelector('[data-testid="screen-home"]');
    if (!wall) throw new Error('no wall');
    const walker = document.createTreeWalker(wall, NodeFilter.SHOW_TEXT);
    let smallest = { size: Infinity, text: '' };
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.textContent?.trim()) continue;
      // Screen-reader-only text (clipped to nothing) is not seen.
      if (element.closest('.roost-wall__sr')) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      if (style.visibility === 'hidden' || box.width === 0 || box.height === 0) continue;
      const size = parseFloat(style.fontSize);
      if (size < smallest.size) smallest = { size, text: node.textContent.trim().slice(0, 40) };
    }
    return smallest;
  });
}

async function boxOf(page: Page, testId: string) {
  const box = await page.getByTestId(testId).boundingBox();
  if (!box) throw new Error(`${testId} not shown`);
  return box;
}

describe('the wall is readable at any width', () => {
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    it(`has no text under 12 px at ${width}×${height}, in en and zh`, async () => {
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      await signIn(page, server.url, 'admin');
      for (const language of ['1', '0'] as const) {
        await openWall(page, server.url, language);
        await page.getByTestId('wall-ticker').waitFor();
        const smallest = await smallestText(page);
        expect(smallest.size, `"${smallest.text}"`).toBeGreaterThanOrEqual(12);
      }
      const map = await boxOf(page, 'wall-map');
      const counters = await boxOf(page, 'wall-today');
      if (width < 1024) {
        // One column: the panels come under the map, as wide as it.
        expect(counters.y).toBeGreaterThanOrEqual(map.y + map.height);
        expect(counters.width).toBeGreaterThan(width * 0.85);
        // Each panel whole, one under the other: none squeezed under the next one's text.
        const panels = await page.locator('.roost-wall__panel').evaluateAll((sections) =>
          sections.map((s) => {
            const box = s.getBoundingClientRect();
            return { top: box.top, bottom: box.bottom, clipped: s.scrollHeight > s.clientHeight };
          }),
        );
        expect(panels.filter((p) => p.clipped)).toEqual([]);
        const sorted = [...panels].sort((a, b) => a.top - b.top);
        for (const [i, panel] of sorted.entries())
          if (i > 0) expect(panel.top).toBeGreaterThanOrEqual(sorted[i - 1]!.bottom - 1);
      } else {
        // Three columns: the panels beside the map.
        expect(counters.x + counters.width).toBeLessThanOrEqual(map.x);
      }
      await context.close();
    });
  }
});
