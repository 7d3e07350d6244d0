import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { launchBrowser, signIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const OPEN_MENU = [
  '/dashboard',
  '/shack/status',
  '/shack/status/overview',
  '/shack/status/monitor',
  '/shack/status/compared',
  '/shack/manage',
  '/envcontrol/index',
  '/log/index',
  '/alarm',
  '/alarm/list',
  '/alarm/settings',
  '/alarm/silences',
  '/alarm/escalation',
  '/alarm/preferences',
  '/production',
  '/production/input',
  '/production/flocks',
  '/production/power',
];

/** The administrator's: alarm drills are its own, after the other alarm pages. */
const afterPrefs = OPEN_MENU.indexOf('/alarm/preferences') + 1;
const ADMIN_OPEN_MENU = [
  ...OPEN_MENU.slice(0, afterPrefs),
  '/alarm/drills',
  ...OPEN_MENU.slice(afterPrefs),
];

/** Administrators and company managers also set the organisation's tariff, after Power. */
const TARIFF_MENU = (menu: readonly string[]) => {
  const afterPower = menu.indexOf('/production/power') + 1;
  return [...menu.slice(0, afterPower), '/production/tariff', ...menu.slice(afterPower)];
};

/** The menu of each demo user, and a path that role may not open. */
const CASES = [
  {
    user: 'admin',
    menu: [
      ...TARIFF_MENU(ADMIN_OPEN_MENU),
      '/system',
      '/system/org',
      '/system/user',
      '/system/farm',
      '/system/poultry',
      '/system/api',
      '/alarmOverview/index',
    ],
    forbidden: '/no/such/page',
  },
  {
    user: 'company',
    menu: [...TARIFF_MENU(OPEN_MENU), '/system', '/system/user', '/system/farm', '/system/poultry'],
    forbidden: '/system/org',
  },
  { user: 'area', menu: [...OPEN_MENU, '/system', '/system/user'], forbidden: '/system/farm' },
  {
    user: 'farm',
    menu: [...OPEN_MENU, '/system', '/system/user'],
    forbidden: '/alarmOverview/index',
  },
  { user: 'shack', menu: OPEN_MENU, forbidden: '/system/user' },
] as const;

describe('menus and forbidden paths of each role', () => {
  for (const { user, menu, forbidden } of CASES) {
    it(`shows ${user} its menu and sends ${forbidden} to /404`, async () => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'en-US',
      });
      const page = await context.newPage();
      try {
        await signIn(page, server.url, user);
        await page.getByTestId('sidebar').waitFor();
        const entries = await page
          .getByTestId('sidebar')
          .locator('[data-testid^="menu-"]')
          .evaluateAll((nodes) =>
            nodes.map((node) => node.getAttribute('data-testid')?.slice('menu-'.length)),
          );
        expect(entries).toEqual(menu);

        await page.goto(`${server.url}${forbidden}`);
        await page.waitForURL('**/404');
        await page.getByTestId('page-not-found').waitFor();
        await expect.poll(() => page.title()).toBe('Page not found - IoT data management platform');
      } finally {
        await context.close();
      }
    });
  }

  it('embeds the alarm screen full width for the administrator, in the page language', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
    });
    const page = await context.newPage();
    try {
      await signIn(page, server.url, 'admin');
      await page.getByTestId('menu-/alarmOverview/index').click();
      const frame = page.getByTestId('wall-frame-frame');
      await expect.poll(() => frame.getAttribute('src')).toBe('/screenDatav/home?language=1');
      const [frameBox, contentBox] = await Promise.all([
        frame.boundingBox(),
        page.locator('.roost-content').boundingBox(),
      ]);
      expect(frameBox?.width).toBeCloseTo((contentBox?.width ?? 0) - 32, 0);
      await page
        .frameLocator('[data-testid="wall-frame-frame"]')
        .getByTestId('screen-home')
        .waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('the operation permission in the console', () => {
  /** The company manager's Weifang House 1 row (a gateway and a flock) on the farms page. */
  const houseRow = async () => {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
    });
    const page = await context.newPage();
    await signIn(page, server.url, 'company');
    await page.goto(`${server.url}/system/farm`);
    await page.getByText('Weifang Broiler Farm').click();
    const row = page.getByTestId('house-panel').getByTestId('house-House 1');
    await row.waitFor();
    await expect.poll(() => row.textContent()).toMatch(/GW\w+.*Head count \d/);
    return { context, row };
  };
  const buttons = (row: Awaited<ReturnType<typeof houseRow>>['row']) =>
    row
      .getByRole('button')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label')));

  it('offers the new-token and close-flock actions only to a user who may operate', async () => {
    const operating = await houseRow();
    try {
      expect(await buttons(operating.row)).toEqual(
        expect.arrayContaining(['New token', 'Close flock']),
      );
    } finally {
      await operating.context.close();
    }

    await server.roost.database.query(
      `update users set can_operate = false where username = 'company'`,
    );
    const viewing = await houseRow();
    try {
      // The same row, its gateway and flock shown, and none of the operating actions.
      const labels = await buttons(viewing.row);
      expect(labels).not.toContain('New token');
      expect(labels).not.toContain('Close flock');
      expect(labels).not.toContain('Gateway');
      expect(labels).toContain('Edit');
    } finally {
      await viewing.context.close();
      await server.roost.database.query(
        `update users set can_operate = true where username = 'company'`,
      );
    }
  });
});
