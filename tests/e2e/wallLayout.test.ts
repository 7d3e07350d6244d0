import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { refreshHouseSummary } from '../../server/alarms/lifecycle.sql';
import { launchBrowser, signIn, startServer, type TestServer } from './harness';
import { collectErrors, openWall } from './wallHelpers';

/** Screenshots to look at (not compared): one per map, language and size. */
const SHOTS_DIR = '.tmp/wall-shots';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  // Open alarms for the list, the night's story and the map, some acknowledged.
  await server.roost.database.query(
    `insert into alarms (house_id, farm_id, cause, subject, severity, state, raised_at,
       acknowledged_at, acknowledged_by)
     select id, farm_id, (array['temperatureHigh','co2High','controllerAlarm','humidityLow'])[1 + id % 4],
       'layout', (array['critical','major','minor'])[1 + id % 3], 'active',
       now() - (id % 20) * interval '47 minutes',
       case when id % 2 = 0 then now() end, case when id % 2 = 0 then 'Demo Administrator' end
     from houses order by id limit 12`,
  );
  // Each house's open-alarm count and top alarm, as the alarm engine keeps them with each
  // change: the map, the counters and the ranking read them.
  const houses = await server.roost.database.query<{ id: number; farm_id: number }>(
    `select id, farm_id from houses order by id limit 12`,
  );
  for (const house of houses)
    await server.roost.database.transaction(({ query }) =>
      refreshHouseSummary(query, house.id, house.farm_id),
    );
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Reading {
  /** Texts wider than their box, or drawn outside their panel. */
  cut: string[];
  /** Panels that show nothing but their heading. */
  empty: string[];
  smallest: { size: number; text: string };
}

/**
 * Every element of the wall that holds text of its own: its scroll width against its box, its
 * box against its panel's, and its font size. A panel is empty when nothing but its heading has
 * text and it draws no chart.
 */
function readWall(page: Page): Promise<Reading> {
  return page.getByTestId('screen-home').evaluate((wall) => {
    const cut: string[] = [];
    const empty: string[] = [];
    let smallest = { size: Infinity, text: '' };
    for (const element of wall.querySelectorAll<HTMLElement>('*')) {
      // Screen-reader lines and the map's own attribution are not read on the wall.
      if (element.closest('.roost-wall__sr, .maplibregl-ctrl')) continue;
      const own = [...element.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '',
      );
      if (!own) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      if (style.visibility === 'hidden' || box.width === 0 || box.height === 0) continue;
      const text = element.textContent!.trim().slice(0, 60);
      const size = parseFloat(style.fontSize);
      if (size < smallest.size) smallest = { size, text };
      if (element.scrollWidth > Math.ceil(box.width) + 1) cut.push(`${text} (wider than its box)`);
      const panel = element.closest<HTMLElement>('.roost-wall__panel');
      if (!panel) continue;
      const outer = panel.getBoundingClientRect();
      if (
        box.left < outer.left - 0.5 ||
        box.right > outer.right + 0.5 ||
        box.top < outer.top - 0.5 ||
        box.bottom > outer.bottom + 0.5
      )
        cut.push(`${text} (outside its panel)`);
    }
    for (const panel of wall.querySelectorAll<HTMLElement>('.roost-wall__panel')) {
      const heading = panel.querySelector('h2')?.textContent ?? '';
      const rest = (panel.textContent ?? '').replace(heading, '').trim();
      const drawn = panel.querySelector('svg, canvas') !== null;
      if (rest === '' && !drawn) empty.push(panel.dataset.testid ?? heading);
    }
    return { cut, empty, smallest };
  });
}

const SIZES = [
  [1280, 720],
  [1920, 1080],
  [3840, 2160],
] as const;

describe('the whole wall at every wall size', () => {
  it(
    'cuts no text, leaves no panel empty and keeps text at 14 px from 1080p up, in en and zh, China and World',
    { timeout: 900_000 },
    async () => {
      // Every variant is read before failing, so one run names every cut text.
      const problems: string[] = [];
      for (const mapType of ['1', '2'] as const) {
        await server.roost.database.query(`update organizations set map_type = $1`, [mapType]);
        for (const language of ['1', '0'] as const) {
          const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
          const page = await context.newPage();
          const errors = collectErrors(page);
          await signIn(page, server.url, 'admin');
          await openWall(page, server.url, language);
          await page.locator('[data-testid="wall-alarms"] li').first().waitFor();
          await page.getByTestId('night-chart').waitFor();
          for (const [width, height] of SIZES) {
            await page.setViewportSize({ width, height });
            // Laid out again for the size: the alarm list measures how many rows it holds.
            await page.waitForTimeout(500);
            await page.evaluate(
              () => new Promise((resolve) => requestAnimationFrame(() => resolve(null))),
            );
            const where = `${width}×${height} language=${language} map=${mapType}`;
            const { cut, empty, smallest } = await readWall(page);
            problems.push(...cut.map((c) => `${where}: ${c}`));
            problems.push(...empty.map((e) => `${where}: ${e} is empty`));
            if (width >= 1920 && smallest.size < 14)
              problems.push(`${where}: "${smallest.text}" at ${smallest.size} px`);
            // Nothing to scroll on a wall.
            if (!(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight)))
              problems.push(`${where}: the page scrolls`);
            await page.screenshot({
              path: `${SHOTS_DIR}/wall-layout-${mapType === '1' ? 'china' : 'world'}-${language === '1' ? 'en' : 'zh'}-${width}.png`,
            });
          }
          await context.close();
          expect(errors).toEqual([]);
        }
      }
      await server.roost.database.query(`update organizations set map_type = '1'`);
      expect(problems).toEqual([]);
    },
  );
});
