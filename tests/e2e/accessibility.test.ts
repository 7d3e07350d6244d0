import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { hashToken } from '../../server/auth/tokens';
import { startDrill } from '../../server/notify/drill';
import { NOT_FOUND_PATH, SCREEN_PATH } from '../../src/console/paths';
import { ERROR_TOAST_MS } from '../../src/console/toaster';
import { resolveRoutes } from '../../src/console/routeLookup';
import { CONSOLE_ROUTES } from '../../src/console/routes';
import { launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

/** axe-core, injected as the page's own script would be (evaluated: the console's CSP forbids inline scripts). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Every page of the console an administrator reaches, from the route table itself: a page added
 * to the table is audited without anyone remembering to list it here. Pages that take a
 * parameter or are not pages (the not-found page) are left out.
 */
const PAGES = resolveRoutes(CONSOLE_ROUTES)
  .filter(({ route }) => route.component !== undefined && route.path !== NOT_FOUND_PATH)
  .filter(({ route, parents }) =>
    [...parents, route].every((r) => !r.roles || r.roles.includes('administrator')),
  )
  .map(({ fullPath }) => fullPath)
  .filter((path) => !path.includes(':'));

/**
 * What some pages show only after a click, audited on the same visit after the page as loaded:
 * Data Input's month of a house and its refusal of an empty day.
 */
const AFTER_LOAD: Readonly<Record<string, (page: Page) => Promise<void>>> = {
  '/production/input': async (page) => {
    await page.locator('.roost-production__house').first().click();
    await page.getByTestId('house-month').waitFor();
    await page.getByTestId('save-day').click();
    await page.getByTestId('input-problems').waitFor();
  },
};

let server: TestServer;
let browser: Browser;
/** A drill's report, a page reached from the drills list (a drill is started before the walk). */
let drillReport: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
  // Six houses report (one too hot, to raise an alarm): cards, charts and alarms are on the
  // pages, not only empty states.
  const { database } = server.roost;
  const gateways = await database.query<{ id: number; network_id: string }>(
    'select id, network_id from gateways order by id limit 6',
  );
  for (const [index, gateway] of gateways.entries()) {
    const token = `axe-${gateway.id}`;
    await database.query('update gateways set token_hash = $1 where id = $2', [
      hashToken(token),
      gateway.id,
    ]);
    server.roost.ingest.directory.forget(gateway.network_id);
    const response = await fetch(`${server.url}/api/ingest/${gateway.network_id}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        ts: Date.now(),
        mode: 1,
        metrics: {
          temperature: index === 0 ? 39.5 : 24 + index / 10,
          temperature_target: 24,
          humidity: 61,
          co2: 1800,
        },
      }),
    });
    expect(response.status).toBe(200);
  }
  // A drill nobody has confirmed yet, to one alarm phone entry: its "0 / 1" tag is on the
  // drills list, and its report has a person to list.
  const [house] = await database.query<{ id: number; farm_id: number }>(
    'select id, farm_id from houses order by id limit 1',
  );
  await database.query(
    `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type,
       repeat_minutes, closable, alarm_type, delay_minutes, status, notice_types)
     values ($1, $2, '13800000461', '00:00', '00:00', 'daily', 10, true, 'message', 0, 'open',
       '["block","device","network"]')`,
    [house!.farm_id, house!.id],
  );
  const drill = await startDrill(
    database,
    { farmId: house!.farm_id, houseId: house!.id },
    'axe',
    false,
    new Date(),
  );
  expect(drill).not.toBeNull();
  drillReport = `/alarm/drills?drill=${drill}`;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * Opens `path` in the signed-in console as its own links do: the router follows history as it
 * follows the browser's Back, so the console is loaded and axe injected once per walk, not once
 * a page. Resolves once the router shows the page and the page has asked for all it shows: no
 * request in flight for half a second (what Playwright's networkidle waits for after a full load)
 * and no progress bar.
 */
async function visit(page: Page, path: string, network: NetworkWatch): Promise<void> {
  // A toast of the page left (Data Input's refusal) would be audited on the next page as it
  // fades out, its text then too faint by design; a full load dropped it. Toasts leave by
  // themselves within ERROR_TOAST_MS.
  await expect
    .poll(() => page.locator('.roost-toaster .bp6-toast').count(), {
      timeout: ERROR_TOAST_MS + 5_000,
    })
    .toBe(0);
  const left = await page.evaluate((to) => {
    const from = location.pathname;
    // The page shown now, marked with its path: once the router has followed, another is shown in
    // its place (a page kept from earlier in the walk bears its own path).
    document.querySelector('.roost-kept-page')?.setAttribute('data-left', from);
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
    return from;
  }, path);
  // A loaded machine may take longer than QUIET_MS to render the next page and ask for its data:
  // the quiet is waited for once the page is there. (The drill report only changes the query.)
  if (new URL(path, 'http://roost').pathname !== left)
    await expect
      .poll(() => page.locator(`.roost-kept-page:not([data-left="${left}"])`).count(), {
        message: path,
      })
      .toBe(1);
  await network.quiet(path);
  await expect
    .poll(() => page.locator('[data-testid="progress-bar"][data-active="true"]').count())
    .toBe(0);
}

interface NetworkWatch {
  /** Resolves once no request has been in flight for QUIET_MS; fails past QUIET_WITHIN_MS. */
  quiet(path: string): Promise<void>;
}

const QUIET_MS = 500;
/** A page that keeps asking (a poll quicker than QUIET_MS) fails by name, not by the test's bound. */
const QUIET_WITHIN_MS = 60_000;

function watchNetwork(page: Page): NetworkWatch {
  let inFlight = 0;
  let lastChange = Date.now();
  const change = (by: number) => {
    inFlight += by;
    lastChange = Date.now();
  };
  page.on('request', () => change(1));
  page.on('requestfinished', () => change(-1));
  page.on('requestfailed', () => change(-1));
  return {
    async quiet(path) {
      // The navigation's first request may start a moment after the history change.
      lastChange = Date.now();
      const end = lastChange + QUIET_WITHIN_MS;
      while (inFlight > 0 || Date.now() - lastChange < QUIET_MS) {
        if (Date.now() > end) throw new Error(`${path} still loads after ${QUIET_WITHIN_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** The serious and critical findings of axe on the page as it is now, one line each. */
async function audit(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    interface Finding {
      id: string;
      impact: string | null;
      nodes: Array<{ target: string[] }>;
    }
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, options: object): Promise<{ violations: Finding[] }> };
      }
    ).axe;
    // Label in name (WCAG 2.5.3) is experimental in axe, so off unless asked for: a speech user
    // says the text a button shows, and a name that does not contain it does not answer.
    const { violations } = await axe.run(document, {
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes[0]?.target.join(' ')}`);
  });
}

describe('every console page, the wall and the sign-in page with axe-core', () => {
  for (const language of ['en', 'zh'] as const) {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      // Some twenty-five pages, each opened until its requests stop, in one test: on a loaded
      // 2-core CI machine one walk of full page loads took over 120 s (about 6 s a page). Only a
      // hang reaches this bound.
      it(
        `has no serious or critical finding, ${language} at ${viewport.width} px`,
        { timeout: 400_000 },
        async () => {
          const { context, page } = await openSignedIn(browser, server.url, 'admin', {
            language,
            viewport,
          });
          const findings: Record<string, string[]> = {};
          const network = watchNetwork(page);
          for (const path of [...PAGES, drillReport]) {
            await visit(page, path, network);
            await page.getByTestId('layout').waitFor();
            expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path);
            const found = await audit(page);
            const after = AFTER_LOAD[path];
            if (after) {
              await after(page);
              found.push(...(await audit(page)).map((f) => `after a click: ${f}`));
            }
            if (found.length > 0) findings[path] = found;
          }
          // The alarm overview shows the wall in a frame, which axe in the console does not
          // enter: the wall is audited as the frame loads it, on its own.
          await page.goto(`${server.url}${SCREEN_PATH}?language=${language === 'en' ? 1 : 0}`);
          await page.getByTestId('screen-home').waitFor();
          await page.waitForLoadState('networkidle');
          const wall = await audit(page);
          if (wall.length > 0) findings[SCREEN_PATH] = wall;
          // Signed out: the sign-in page.
          await page.context().clearCookies();
          await page.context().addCookies([
            {
              name: 'language',
              value: language,
              domain: new URL(server.url).hostname,
              path: '/',
            },
          ]);
          await page.goto(`${server.url}/login`);
          await page.getByTestId('login-form').waitFor();
          await page.waitForLoadState('networkidle');
          const login = await audit(page);
          if (login.length > 0) findings['/login'] = login;
          await context.close();
          expect(findings).toEqual({});
        },
      );
    }
  }
});
