import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { confirmSave, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
  // A user who may read but not operate.
  await server.roost.database.query(`update users set can_operate = false where username = 'area'`);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const REQUIRED = ['Deaths AM', 'Deaths PM', 'Culls AM', 'Culls PM', 'Feed (kg)'];

async function openInput(user: string, language: 'en' | 'zh' = 'en') {
  const { page } = await openSignedIn(browser, server.url, user, { language });
  await page.goto(`${server.url}/production/input`);
  await page.getByTestId('day-grid').locator('tbody tr').first().waitFor();
  return page;
}

const cell = (page: Page, house: string, field: string) =>
  page.getByRole('textbox', { name: `${house} ${field}`, exact: true });

async function fillRow(page: Page, house: string, values: number[]) {
  for (const [i, field] of REQUIRED.entries())
    await cell(page, house, field).fill(String(values[i]));
}

describe('Daily Business in the browser', () => {
  it('a day entered for three houses (typed, then pasted) updates the month and the flock KPIs and charts', async () => {
    const page = await openInput('farm');
    const grid = page.getByTestId('day-grid');
    const houses = await grid.locator('tbody th').allInnerTexts();
    expect(houses.slice(0, 3)).toEqual(['House 1', 'House 2', 'House 3']);

    // Yesterday first, with a weight, so the weight chart has two days to draw.
    const today = await page.locator('#production-day').inputValue();
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10);
    await page.locator('#production-day').fill(yesterday);
    // The grid says which day it shows once that day's answer is in: typing before would be lost.
    await grid.and(page.locator(`[data-day="${yesterday}"]`)).waitFor();
    expect(await cell(page, 'House 2', 'Deaths AM').inputValue()).toBe('');
    // (House 1's demo flock was placed today; House 2's a week ago.)
    await fillRow(page, 'House 2', [4, 3, 1, 0, 1800]);
    await cell(page, 'House 2', 'Weight (g)').fill('150');
    await page.getByTestId('save-day').click();
    await confirmSave(page);
    await page.locator('.bp6-toast', { hasText: 'Daily data saved' }).waitFor();

    await page.locator('#production-day').fill(today);
    await grid.and(page.locator(`[data-day="${today}"]`)).waitFor();
    expect(await cell(page, 'House 2', 'Deaths AM').inputValue()).toBe('');
    // House 2 typed with the keyboard: arrows go across.
    await cell(page, 'House 2', 'Deaths AM').click();
    await page.keyboard.type('5');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('2');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('0');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('1');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('1900');
    await cell(page, 'House 2', 'Weight (g)').fill('190');
    // Houses 3 and 4 pasted from a spreadsheet as one block.
    await cell(page, 'House 3', 'Deaths AM').focus();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', '3\t1\t0\t0\t1750\n2\t2\t1\t0\t1700\n');
      document.activeElement!.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    });
    await expect.poll(() => cell(page, 'House 4', 'Feed (kg)').inputValue()).toBe('1700');
    await page.getByTestId('save-day').click();
    await confirmSave(page);
    await page.locator('.bp6-toast', { hasText: 'Daily data saved' }).last().waitFor();
    await page.getByRole('button', { name: 'House 2', exact: true }).click();
    await page.locator(`[data-day="${today}"][data-state="entered"]`).waitFor();
    await page.locator(`[data-day="${yesterday}"][data-state="entered"]`).waitFor();

    await page.goto(`${server.url}/production/flocks`);
    await page.getByTestId('kpi-cards').waitFor();
    await page.locator('#flocks-house').selectOption({ label: 'Weifang Broiler Farm · House 2' });
    await expect.poll(() => page.getByTestId('kpi-recorded').innerText()).toContain('2');
    // The weight chart draws this flock's two days against the breed standard.
    await page.getByTestId('chart-bodyWeightG').locator('svg path').first().waitFor();
    expect(
      await page.getByTestId('chart-bodyWeightG').getByTestId('chart-unit').textContent(),
    ).toBe('g');
    // The picture has a name a screen reader says: what is drawn, in which unit.
    const named = page
      .getByTestId('chart-bodyWeightG')
      .getByRole('img', { name: 'Chart of This flock, Breed standard, in g', exact: true });
    expect(await named.count()).toBe(1);
    const today1 = page.getByTestId('kpi-table').locator(`tr[data-day="${today}"]`);
    expect(await today1.innerText()).toContain('190');
  });

  it("an empty required value is refused with the product's words, in English and Chinese", async () => {
    const page = await openInput('farm');
    await fillRow(page, 'House 4', [1, 1, 0, 0, 1000]);
    await cell(page, 'House 4', 'Feed (kg)').fill('');
    await page.getByTestId('save-day').click();
    // Checked before the save question: the refusal shows at once, and nothing is asked.
    await page.locator('.bp6-toast', { hasText: 'Value to send must not be empty' }).waitFor();
    expect(await page.locator('.roost-confirm-save').count()).toBe(0);
    expect(await cell(page, 'House 4', 'Feed (kg)').getAttribute('aria-invalid')).toBe('true');
    // Said on the page, naming the house and the cell: a tablet shows no tooltip, and the toast goes.
    const problems = page.getByTestId('input-problems');
    expect(await problems.innerText()).toContain('House 4: enter Feed (kg)');
    await cell(page, 'House 4', 'Deaths AM').fill('x');
    await page.getByTestId('save-day').click();
    await expect
      .poll(() => problems.innerText())
      .toContain('House 4: Deaths AM must be a number of 0 or more');
    await cell(page, 'House 4', 'Deaths AM').fill('1');
    await cell(page, 'House 4', 'Feed (kg)').fill('1000');
    // Mended cells take their line away.
    await problems.waitFor({ state: 'detached' });

    const zh = await openInput('farm', 'zh');
    const feed = zh.getByRole('textbox', { name: 'House 4 耗料（kg）', exact: true });
    // Every cell of the row set here: an earlier test may have stored this house's day.
    const zhCell = (label: string) =>
      zh.getByRole('textbox', { name: `House 4 ${label}`, exact: true });
    await zhCell('上午死亡').fill('1');
    await zhCell('下午死亡').fill('');
    await zhCell('上午淘汰').fill('0');
    await zhCell('下午淘汰').fill('0');
    await feed.fill('');
    await zh.getByTestId('save-day').click();
    await zh.locator('.bp6-toast', { hasText: '发送的值不能为空' }).waitFor();
    await expect
      .poll(() => zh.getByTestId('input-problems').innerText())
      .toContain('House 4：请填写下午死亡和耗料（kg）');
  });

  it('a house manager sees and enters only its houses; a user without the operation permission only reads', async () => {
    const shack = await openInput('shack');
    expect(await shack.getByTestId('day-grid').locator('tbody th').allInnerTexts()).toEqual([
      'House 1',
      'House 2',
      'House 3',
    ]);
    await fillRow(shack, 'House 2', [0, 1, 0, 0, 1760]);
    await shack.getByTestId('save-day').click();
    await confirmSave(shack);
    await shack.locator('.bp6-toast', { hasText: 'Daily data saved' }).waitFor();

    const reader = await openInput('area');
    await reader.getByText('entering it needs the operation permission').waitFor();
    expect(await reader.getByTestId('save-day').count()).toBe(0);
    expect(await cell(reader, 'House 1', 'Deaths AM').isDisabled()).toBe(true);
  });
});
