import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchBrowser, signIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Signed in, with three pages visited: overview (the landing page), monitor, log. */
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  page = await context.newPage();
  await signIn(page, server.url, 'admin');
  await page.waitForURL('**/shack/status/overview');
  await page.getByTestId('menu-/shack/status/monitor').click();
  await page.waitForURL('**/shack/status/monitor');
  await page.getByTestId('menu-/log/index').click();
  await page.waitForURL('**/log/index');
});
afterEach(async () => {
  await context?.close();
});

const tabs = () =>
  page
    .getByTestId('tab')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-path')));
const activeTab = () =>
  page.locator('[data-testid="tab"].roost-tab--active').getAttribute('data-path');
const currentPath = () => new URL(page.url()).pathname;

async function contextMenu(
  path: string,
  item: 'tab-refresh' | 'tab-close' | 'tab-close-others' | 'tab-close-all',
) {
  await page.locator(`[data-testid="tab"][data-path="${path}"]`).click({ button: 'right' });
  const menu = page.getByTestId('tab-context-menu');
  await menu.waitFor();
  await expect.poll(async () => (await menu.boundingBox())?.width).toBe(105);
  await menu.getByTestId(item).click();
}

describe('the tab strip', () => {
  it('has a tab per visited page after the affixed home tab, the current one active', async () => {
    await expect
      .poll(tabs)
      .toEqual(['/dashboard', '/shack/status/overview', '/shack/status/monitor', '/log/index']);
    await expect.poll(activeTab).toBe('/log/index');
    await expect(
      page.locator('[data-path="/dashboard"] [data-testid="tab-close-button"]').count(),
    ).resolves.toBe(0);
  });

  it('closes a tab that is not active and stays on the page', async () => {
    await contextMenu('/shack/status/monitor', 'tab-close');
    await expect.poll(tabs).toEqual(['/dashboard', '/shack/status/overview', '/log/index']);
    expect(currentPath()).toBe('/log/index');
  });

  it('goes to the last remaining tab when the active one is closed', async () => {
    await page.locator('[data-path="/log/index"] [data-testid="tab-close-button"]').click();
    await expect.poll(currentPath).toBe('/shack/status/monitor');
    await expect
      .poll(tabs)
      .toEqual(['/dashboard', '/shack/status/overview', '/shack/status/monitor']);
  });

  it('refreshes a page: it is mounted afresh at the same address', async () => {
    await page.getByTestId('page-log').evaluate((node) => node.setAttribute('data-old', 'yes'));
    await contextMenu('/log/index', 'tab-refresh');
    await expect
      .poll(() => page.locator('[data-testid="page-log"]:not([data-old])').count())
      .toBe(1);
    expect(currentPath()).toBe('/log/index');
    await expect
      .poll(tabs)
      .toEqual(['/dashboard', '/shack/status/overview', '/shack/status/monitor', '/log/index']);
  });

  it('closes the others but keeps the affixed home tab', async () => {
    await contextMenu('/shack/status/overview', 'tab-close-others');
    await expect.poll(tabs).toEqual(['/dashboard', '/shack/status/overview']);
    await expect.poll(currentPath).toBe('/shack/status/overview');
  });

  it('closes all: only the affixed home tab survives, and it is opened', async () => {
    await contextMenu('/shack/status/monitor', 'tab-close-all');
    await expect.poll(tabs).toEqual(['/dashboard']);
    await expect.poll(currentPath).toBe('/dashboard');
    await page.getByTestId('page-dashboard').waitFor();
    // The home tab's own menu has no close entry.
    await page.locator('[data-testid="tab"][data-path="/dashboard"]').click({ button: 'right' });
    await expect(
      page.getByTestId('tab-context-menu').getByTestId('tab-close').count(),
    ).resolves.toBe(0);
  });

  it('gives the AI6000 page, opened from House Setting and not in the menu, a tab of its own', async () => {
    // A reload: the tabs visited before are forgotten, the affixed home tab comes back.
    await page.goto(`${server.url}/envcontrol/ai6000`);
    await page.getByTestId('page-ai6000').waitFor();
    await expect.poll(tabs).toEqual(['/dashboard', '/envcontrol/ai6000']);
    await expect.poll(activeTab).toBe('/envcontrol/ai6000');
    expect(await page.locator('[data-path="/envcontrol/ai6000"]').textContent()).toContain(
      'AI6000',
    );
  });

  it('keeps a page’s filter and list page when the user leaves by a tab and comes back; a closed tab’s page starts afresh', async () => {
    // Three pages of the operation log: copies of the sign-ins.
    await server.roost.database.query(
      `insert into operation_logs (at, operator_id, operator_name, function, operation)
       select l.at, l.operator_id, l.operator_name, l.function, l.operation
       from (select * from operation_logs where operation = 'signIn' limit 1) l,
            generate_series(1, 45)`,
    );
    const tab = (path: string) => page.locator(`[data-testid="tab"][data-path="${path}"]`);
    const operator = page.locator('#log-operator');
    const pageOf = () => page.locator('.roost-admin__pager').textContent();
    await page.reload();
    await expect.poll(pageOf).toContain('Page 1 of 3');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(pageOf).toContain('Page 2 of 3');
    await operator.fill('Demo');

    await tab('/dashboard').click();
    await page.getByTestId('page-dashboard').waitFor();
    await tab('/log/index').click();
    await page.getByTestId('page-log').waitFor();
    expect(await operator.inputValue()).toBe('Demo');
    expect(await pageOf()).toContain('Page 2 of 3');

    await tab('/dashboard').click();
    await page.locator('[data-path="/log/index"] [data-testid="tab-close-button"]').click();
    await page.getByTestId('menu-/log/index').click();
    await page.getByTestId('page-log').waitFor();
    await expect.poll(pageOf).toContain('Page 1 of 3');
    expect(await operator.inputValue()).toBe('');
  });
});
