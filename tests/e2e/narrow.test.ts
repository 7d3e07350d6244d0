import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { demoHouse, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

/** At 390 px Home's attention list and House Setting's online log fit. */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const PHONE = { width: 390, height: 844 };

/**
 * How far an element and the page run past their width: the element's own overflow, how far
 * its right edge is past the window, and the page's and the content area's overflow.
 */
function overflowOf(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((node) => {
    const main = document.querySelector('main')!;
    const page = document.scrollingElement!;
    return {
      own: node.scrollWidth - node.clientWidth,
      pastWindow: Math.max(0, Math.ceil(node.getBoundingClientRect().right - window.innerWidth)),
      page: page.scrollWidth - page.clientWidth,
      content: main.scrollWidth - main.clientWidth,
    };
  });
}

const FITS = { own: 0, pastWindow: 0, page: 0, content: 0 };

describe('at 390 px', () => {
  it('Home’s "Needs attention first" fits the phone (en, zh)', async () => {
    // Houses in alarm come first, each with its most important alarm in words: a controller's
    // own text and a reading against its limit, the longest lines the list shows.
    await server.roost.database.query(
      `insert into house_state (house_id, online, alarm_count, alarm_top)
       select id, true, 1, case when id % 2 = 0
         then '{"cause":"controllerAlarm","severity":"critical","subject":null,"value":null,"limit":null,"text":"Inlet 2 blocked: minimum ventilation cannot be reached"}'::jsonb
         else '{"cause":"temperatureHigh","severity":"critical","subject":"temperature","value":35.25,"limit":32,"text":null}'::jsonb end
       from houses
       on conflict (house_id) do update set online = excluded.online,
         alarm_count = excluded.alarm_count, alarm_top = excluded.alarm_top`,
    );
    for (const language of ['en', 'zh'] as const) {
      const { context, page } = await openSignedIn(browser, server.url, 'admin', {
        language,
        viewport: PHONE,
      });
      await page.goto(`${server.url}/dashboard`);
      await page.locator('[data-testid="attention-row"][data-status="alarm"]').first().waitFor();
      await page.getByTestId('attention-row').first().waitFor();
      expect(await overflowOf(page, 'attention')).toEqual(FITS);
      await context.close();
    }
  });

  it('House Setting’s online log fits the phone (en, zh)', async () => {
    const house = await demoHouse(server, 'House 1');
    // A gateway that went off and on again over a cellular and a wired link.
    await server.roost.database.query(
      `insert into gateway_online_log (gateway_id, at, online, network, reason)
       select g.id, now() - (n || ' hours')::interval, n % 2 = 0,
              case when n % 2 = 0 then 'wireless' else 'wired' end, 'test'
       from gateways g, generate_series(1, 6) n where g.house_id = $1`,
      [house.id],
    );
    for (const language of ['en', 'zh'] as const) {
      const { context, page } = await openSignedIn(browser, server.url, 'admin', {
        language,
        viewport: PHONE,
      });
      await page.goto(`${server.url}/envcontrol/index?houseId=${house.id}`);
      await page.getByTestId('envcontrol-online-log').locator('tbody tr').first().waitFor();
      expect(await overflowOf(page, 'envcontrol-online-log')).toEqual(FITS);
      await context.close();
    }
  });
});
