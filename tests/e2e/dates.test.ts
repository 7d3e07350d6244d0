import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The shape of a written date: which figures, in which order, with which separators. */
const shape = (text: string) => text.trim().replace(/\d/g, '9');

describe('one date format per language', () => {
  for (const language of ['en', 'zh'] as const) {
    it(`the log's date picker and its table write dates alike (${language})`, async () => {
      // The browser's own locale is English on purpose: a native date input would then show
      // mm/dd/yyyy whatever the console's language.
      const { context, page } = await openSignedIn(browser, server.url, 'admin', { language });
      await page.goto(`${server.url}/log/index`);
      const firstAt = page.locator('[data-testid="page-log"] tbody tr td').first();
      await firstAt.waitFor();
      const tableDate = (await firstAt.innerText()).slice(0, 10);
      expect(shape(await firstAt.innerText())).toBe('9999-99-99 99:99:99');

      // No native date input anywhere on the page.
      expect(await page.locator('input[type="date"], input[type="datetime-local"]').count()).toBe(
        0,
      );

      // Pick today from the calendar: the field shows it as the table does.
      const from = page.locator('#log-from');
      await page.locator('#log-from ~ * button, #log-from + * button').first().click();
      const calendar = page.getByTestId('date-calendar');
      await calendar.waitFor();
      const heading = await calendar.locator('strong').innerText();
      expect(heading).toMatch(language === 'zh' ? /^\d{4}年\d{1,2}月$/ : /^[A-Z][a-z]+ \d{4}$/);
      await calendar.getByRole('button', { name: tableDate, exact: true }).click();
      await expect.poll(async () => shape(await from.inputValue())).toBe('9999-99-99 99:99');
      expect((await from.inputValue()).slice(0, 10)).toBe(tableDate);

      // Typed the other ways people type a date, it is written back the same way on leaving.
      await from.fill(`${tableDate.replace(/-/g, '/')} 08:30`);
      await from.blur();
      await expect.poll(() => from.inputValue()).toBe(`${tableDate} 08:30`);
      const [y, m, d] = tableDate.split('-');
      await from.fill(`${y}年${Number(m)}月${Number(d)}日 8:30`);
      await from.blur();
      await expect.poll(() => from.inputValue()).toBe(`${tableDate} 08:30`);

      // A date that does not exist is refused, not rolled over.
      await from.fill('2026-02-30');
      await expect.poll(() => from.getAttribute('aria-invalid')).toBe('true');
      await context.close();
    });
  }

  it('after a day is picked, the field keeps the focus a person moved to it while the calendar faded', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    await page.goto(`${server.url}/log/index`);
    const from = page.locator('#log-from');
    const calendarButton = page.locator('#log-from ~ * button').first();
    const calendar = page.getByTestId('date-calendar');
    const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
    const focusedIsCalendarButton = () =>
      calendarButton.evaluate((button) => document.activeElement === button);

    // Picked and left alone: the focus comes back to the calendar's button, as for a keyboard.
    await calendarButton.click();
    await calendar.locator('button[aria-pressed]').first().click();
    await calendar.waitFor({ state: 'detached' });
    await expect.poll(focusedIsCalendarButton).toBe(true);

    // Picked, then straight into the field: it was pulled back to the button once the calendar
    // had faded (300 ms), and what was typed next went nowhere.
    await calendarButton.click();
    await calendar.locator('button[aria-pressed]').nth(1).click();
    await from.focus();
    // Blueprint moves the focus as the fade ends, before the calendar leaves the page.
    await calendar.waitFor({ state: 'detached' });
    expect(await focusedId()).toBe('log-from');
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await expect.poll(() => from.inputValue()).toMatch(/ 00:0$/);
    await context.close();
  });

  it('a date in a table stays on one line on a phone', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin', {
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${server.url}/log/index`);
    const firstAt = page.locator('[data-testid="page-log"] tbody tr td').first();
    await firstAt.waitFor();
    // One rectangle per line the text takes: it broke at every hyphen (2026- / 11-23 / 17:38).
    const lines = await firstAt.evaluate((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines).toBe(1);
    await context.close();
  });
});
