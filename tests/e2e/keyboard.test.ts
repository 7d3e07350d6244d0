import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { demoHouse, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** What has the keyboard focus: its test id, else its tag and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return '';
    return el.dataset['testid'] ?? `${el.tagName.toLowerCase()}:${el.textContent?.trim() ?? ''}`;
  });

async function tabUntil(page: Page, wanted: (focus: string) => boolean, limit = 60) {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    if (wanted(await focused(page))) return i + 1;
  }
  throw new Error(`not reached in ${limit} Tabs; last: ${await focused(page)}`);
}

describe('the console by keyboard alone', () => {
  it('skips to the content in one Tab and opens a house from the overview with Enter', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    await page.goto(`${server.url}/shack/status/overview`);
    await page.getByTestId('house-card').first().waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a:Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('content');
    // From the content, the first house card's link is a few Tabs away (toolbar first).
    const tabs = await tabUntil(page, (f) => f === 'card-name');
    expect(tabs).toBeLessThan(20);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/shack/status/monitor?houseId=*');
    await page.getByTestId('monitor-sensors').waitFor();
    await context.close();
  });

  it('at 390 px the closed menu takes no focus; opened, it takes focus and Escape closes it', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin', {
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${server.url}/shack/status/overview`);
    await page.getByTestId('house-card').first().waitFor();
    expect(await page.getByTestId('layout').getAttribute('data-sidebar')).toBe('closed');
    // Tab through the top bar: no menu link is ever focused while the menu is closed.
    const seen: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      seen.push(
        await page.evaluate(() =>
          document.activeElement?.closest('[data-testid="sidebar"]') ? 'menu' : 'page',
        ),
      );
    }
    expect(seen).not.toContain('menu');
    await page.getByTestId('hamburger').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('layout').getAttribute('data-sidebar')).toBe('open');
    await expect
      .poll(() => page.evaluate(() => !!document.activeElement?.closest('[data-testid="sidebar"]')))
      .toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('layout').getAttribute('data-sidebar')).toBe('closed');
    await expect.poll(() => focused(page)).toBe('hamburger');
    await context.close();
  });

  it('selects a farm in Farm Manage with Tab and Enter', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    await page.goto(`${server.url}/system/farm`);
    await page.getByRole('button', { name: 'Weifang Broiler Farm' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // skip to the content
    await tabUntil(page, (f) => f === 'button:Weifang Broiler Farm');
    await page.keyboard.press('Enter');
    await page.getByTestId('house-panel').getByTestId('house-House 1').waitFor();
    await context.close();
  });

  it('reaches the Alarm input tab of Alarm Settings with the arrow keys and opens it with Enter', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    await page.goto(`${server.url}/alarm/settings`);
    await page.getByRole('tab', { name: 'Alarm phone' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // skip to the content
    await tabUntil(page, (f) => f === 'div:Alarm phone');
    await page.keyboard.press('ArrowRight');
    // Focus moves once the chosen tab has rendered: wait for it, as a user's next key would.
    await expect.poll(() => focused(page)).toBe('div:Alarm input');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Alarm input' }).getAttribute('aria-selected'))
      .toBe('true');
    await context.close();
  });

  it('a dialog opened from the account menu gives focus back to the account button', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-change-password').click();
    await page.locator('.bp6-dialog').waitFor();
    // The dialog's overlay takes focus once it has opened (Blueprint's focus trap):
    // a person presses Escape in it, not before; on a loaded CI machine the key came too early.
    await expect
      .poll(() => page.evaluate(() => !!document.activeElement?.closest('.bp6-overlay')))
      .toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('.bp6-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('user-menu');
    await context.close();
  });

  it("reads Blueprint's own button names in the console's language: a dialog's close button in zh", async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin', {
      language: 'zh',
    });
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-change-password').click();
    const close = page.locator('.bp6-dialog .bp6-dialog-close-button');
    await close.waitFor();
    await expect.poll(() => close.getAttribute('aria-label')).toBe('关闭');
    await page.keyboard.press('Escape');
    await context.close();
  });

  it("names a toast's close button and the date picker's buttons in zh, none in English", async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin', {
      language: 'zh',
    });
    await page.goto(`${server.url}/production/input`);
    await page.getByTestId('day-grid').locator('tbody tr').first().waitFor();
    // An empty day refused: a toast, with Blueprint's own close button.
    await page.getByTestId('save-day').click();
    const toastClose = page.locator('.bp6-toast button').last();
    await toastClose.waitFor();
    await expect.poll(() => toastClose.getAttribute('aria-label')).toBe('关闭');
    await page.getByRole('button', { name: '选择日期', exact: true }).click();
    await page.getByTestId('date-calendar').waitFor();
    // Every name a screen reader gives the toast and the calendar is Chinese or digits.
    const names = await page
      .locator('.bp6-toast-container [aria-label], [data-testid="date-calendar"] [aria-label]')
      .evaluateAll((all) => all.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(names.length).toBeGreaterThan(28);
    expect(names.filter((name) => /[A-Za-z]/.test(name))).toEqual([]);
    await context.close();
  });

  it('House Setting gives focus back: to Send after Escape in its dialog, to the edited field after sending', async () => {
    const house = await demoHouse(server, 'House 1');
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    await page.goto(`${server.url}/envcontrol/index?houseId=${house.id}`);
    const field = page.getByTestId('param-heat_offset').locator('input');
    await field.fill('3.5');
    const inDialog = () => page.evaluate(() => !!document.activeElement?.closest('.bp6-overlay'));
    const dialog = page.getByTestId('envcontrol-send-dialog');

    await page.getByTestId('envcontrol-send').click();
    await expect.poll(inDialog).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('envcontrol-send');

    // Sent, the change is no longer a draft and Send is disabled: focus goes to the field.
    await page.keyboard.press('Enter');
    await expect.poll(inDialog).toBe(true);
    await page.getByTestId('envcontrol-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() =>
        page.evaluate(() => !!document.activeElement?.closest('[data-testid="param-heat_offset"]')),
      )
      .toBe(true);
    await context.close();
  });
});
