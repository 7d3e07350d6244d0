import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { confirmSave, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const principal = async () =>
  (
    await server.roost.database.query<{ principal: string }>(
      `select principal from organizations where code = 'GPP'`,
    )
  )[0]?.principal;

describe('a save asks first', () => {
  for (const [language, question, cancel] of [
    ['en', 'Save the changes?', 'Cancel'],
    ['zh', '确定保存修改吗？', '取消'],
  ] as const) {
    it(`stores nothing until the question is answered with Save (${language})`, async () => {
      const { context, page } = await openSignedIn(browser, server.url, 'admin', { language });
      await page.goto(`${server.url}/system/org`);
      const row = page.getByTestId('org-GPP');
      await row.locator('button').first().waitFor();
      const before = await principal();
      const typed = `Confirm ${language}`;

      await row.getByRole('button', { name: language === 'en' ? 'Edit' : '编辑' }).click();
      await page.locator('#org-principal').fill(typed);
      await page.locator('.bp6-dialog-footer .bp6-intent-primary').click();
      expect(await page.getByTestId('confirm-save').innerText()).toBe(question);

      // Cancel: back in the form with what was typed, and nothing stored.
      await page.locator('.roost-confirm-save').getByRole('button', { name: cancel }).click();
      await page.locator('.roost-confirm-save').waitFor({ state: 'detached' });
      expect(await page.locator('#org-principal').inputValue()).toBe(typed);
      expect(await principal()).toBe(before);

      // Save, then Save again in the question: stored.
      await page.locator('.bp6-dialog-footer .bp6-intent-primary').click();
      await confirmSave(page);
      await expect.poll(principal).toBe(typed);
      await context.close();
    });
  }
});
