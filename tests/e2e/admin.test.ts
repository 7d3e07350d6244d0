import { mkdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { confirmSave, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

const SHOTS = '.tmp/screens-admin';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const openAs = (
  user: string,
  language: 'en' | 'zh' = 'en',
  viewport?: { width: number; height: number },
) => openSignedIn(browser, server.url, user, { language, viewport });

describe('system management pages', () => {
  it('users: create, reset password (shown once), delete with the remaining count', async () => {
    const { context, page } = await openAs('admin');
    await page.goto(`${server.url}/system/user`);
    await page.getByTestId('user-shack').waitFor();
    await page.screenshot({ path: `${SHOTS}/user-en.png` });

    await page.getByRole('button', { name: 'New user' }).click();
    await page.locator('#user-username').fill('e2e.keeper');
    await page.locator('#user-password').fill('Keeper12345');
    await page.locator('#user-realName').fill('E2E Keeper');
    await page.locator('#user-role').selectOption('shack_manager');
    await page.getByTestId('assign-shackIds').locator('label').first().click();
    await page.getByRole('button', { name: 'Save' }).click();
    await confirmSave(page);
    const row = page.getByTestId('user-e2e.keeper');
    await row.waitFor();

    await row.getByRole('button', { name: 'Reset password' }).click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Reset password' }).click();
    const shown = await page.getByTestId('new-password').textContent();
    expect(shown).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{10,}$/);
    await page.locator('.bp6-alert').getByRole('button', { name: 'Close', exact: true }).click();

    await row.getByRole('button', { name: 'Delete' }).click();
    await expect
      .poll(() => page.getByTestId('confirm-delete').textContent())
      .toBe('Delete “e2e.keeper” permanently? 5 will remain.'); // 5 demo users + 1 new
    await page.locator('.bp6-alert').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('organisations: create and delete, in Chinese', async () => {
    const { context, page } = await openAs('admin', 'zh');
    await page.goto(`${server.url}/system/org`);
    await page.getByTestId('org-GPP').waitFor();
    await page.getByRole('button', { name: '新增组织' }).click();
    await page.locator('#org-name').fill('E2E 组织');
    await page.locator('#org-code').fill('E2E');
    await page.getByRole('button', { name: '保存' }).click();
    await confirmSave(page);
    const row = page.getByTestId('org-E2E');
    await row.waitFor();
    await page.screenshot({ path: `${SHOTS}/org-zh.png` });
    await row.getByRole('button', { name: '删除' }).click();
    expect(await page.getByTestId('confirm-delete').textContent()).toContain('剩余 1 条');
    await page.locator('.bp6-alert').getByRole('button', { name: '删除' }).click();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('organisations: a delete whose answer is lost still shows the list as stored', async () => {
    await server.roost.database.query(
      `insert into organizations (name, code) values ('Lost answer', 'LOST')`,
    );
    const { context, page } = await openAs('admin');
    await page.goto(`${server.url}/system/org`);
    const row = page.getByTestId('org-LOST');
    await row.waitFor();
    // The server deletes it, but the console never hears back (as when its request times out).
    let serverAnswer: (text: string) => void = () => undefined;
    const answered = new Promise<string>((resolve) => (serverAnswer = resolve));
    await page.route('**/api/org/delete', async (route) => {
      const response = await route.fetch();
      serverAnswer(await response.text());
      await route.abort('timedout');
    });
    await row.getByRole('button', { name: 'Delete' }).click();
    // The list is read again after the failure: the only list request after the confirmation.
    const reread = page.waitForResponse((r) => r.url().includes('/api/org/list'), {
      timeout: 60_000,
    });
    await page.locator('.bp6-alert').getByRole('button', { name: 'Delete' }).click();
    expect(await answered).toContain('"success":true');
    const list = await reread;
    expect(list.status()).toBe(200);
    expect(await list.text()).not.toContain('"LOST"');
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('list pages: Enter in the keyword field searches (organisations, breeds)', async () => {
    await server.roost.database.query(
      `insert into organizations (name, code) values ('Found by Enter', 'ENTER')`,
    );
    const { context, page } = await openAs('admin');
    await page.goto(`${server.url}/system/org`);
    await page.getByTestId('org-GPP').waitFor();
    await page.locator('#org-keyword').fill('ENTER');
    await page.locator('#org-keyword').press('Enter');
    await page.getByTestId('org-GPP').waitFor({ state: 'detached' });
    await page.getByTestId('org-ENTER').waitFor();

    await page.goto(`${server.url}/system/poultry`);
    await page.getByTestId('breed-BROILER-STD').waitFor();
    await page.locator('#breed-keyword').fill('LAYER');
    await page.locator('#breed-keyword').press('Enter');
    await page.getByTestId('breed-BROILER-STD').waitFor({ state: 'detached' });
    await page.getByTestId('breed-LAYER-BROWN').waitFor();
    await context.close();
  });

  it('farms: a new house gets a gateway whose token is shown once, then rotated', async () => {
    const { context, page } = await openAs('company');
    await page.goto(`${server.url}/system/farm`);
    await page.getByText('Weifang Broiler Farm').click();
    const panel = page.getByTestId('house-panel');
    await panel.getByTestId('house-House 1').waitFor();
    await panel.getByRole('button', { name: 'New house' }).click();
    await page.locator('#field-name').fill('House 99');
    await page.getByRole('button', { name: 'Save' }).click();
    await confirmSave(page);
    const house = panel.getByTestId('house-House 99');
    await house.waitFor();
    await house.getByRole('button', { name: 'Add gateway' }).click();
    await page.locator('#field-networkId').fill('GWE2E99');
    await page.locator('#field-typeKey').selectOption('25');
    await page.getByRole('button', { name: 'Save' }).click();
    await confirmSave(page);
    const first = (await page.getByTestId('gateway-token').textContent()) ?? '';
    expect(first.length).toBeGreaterThanOrEqual(43);
    await page.screenshot({ path: `${SHOTS}/farm-token-en.png` });
    await page.locator('.bp6-alert').getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByTestId('gateway-token').waitFor({ state: 'detached' });
    await expect.poll(() => house.textContent()).toContain('GWE2E99');
    const html = await page.content();
    const at = html.indexOf(first);
    expect(at, html.slice(Math.max(0, at - 300), at + 100)).toBe(-1);

    await house.getByRole('button', { name: 'New token' }).click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'New token' }).click();
    const second = (await page.getByTestId('gateway-token').textContent()) ?? '';
    expect(second).not.toBe(first);
    expect(second.length).toBeGreaterThanOrEqual(43);
    await page.locator('.bp6-alert').getByRole('button', { name: 'Close', exact: true }).click();
    await context.close();
  });

  it('breeds: a common breed is read-only, its copy takes a grid pasted from a spreadsheet', async () => {
    const { context, page } = await openAs('admin');
    await page.goto(`${server.url}/system/poultry`);
    const common = page.getByTestId('breed-BROILER-STD');
    await common.click();
    await page.getByText('Common breed: read-only. Copy it to change it.').waitFor();
    await common.getByRole('button', { name: 'Copy' }).click();
    await page.getByTestId('breed-BROILER-STD-COPY').waitFor();
    const detail = page.getByTestId('breed-detail');
    await detail.getByRole('button', { name: 'Paste from spreadsheet' }).click();
    await page
      .getByTestId('paste-area')
      .fill(
        'Age\tTemp\n1\t33\t60\t3000\t23\t30\t10\t42\t12\n2\t32.5\t60\t3000\t23\t30\t14\t55\t15\n',
      );
    await detail.getByRole('button', { name: 'Apply' }).click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByTestId('breed-grid').locator('tbody tr').count()).toBe(2);
    await detail.getByRole('button', { name: 'Save', exact: true }).click();
    await confirmSave(page);
    await page.getByText('Update succeeded').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/poultry-en.png`, fullPage: true });
    await context.close();
  });

  it('operation log: filters, and warns before exporting more than 15,000 rows', async () => {
    await server.roost.database.db.execute(sql`
      insert into operation_logs (operator_name, function, operation, remark, source)
      select 'Bulk writer', 'bulk', 'write', '=1+1', 'mobile' from generate_series(1, 15001)`);
    const { context, page } = await openAs('admin');
    await page.goto(`${server.url}/log/index`);
    await page.getByText('Bulk writer').first().waitFor();
    await page.locator('#log-operator').fill('bulk');
    await page.locator('#log-source').selectOption('mobile');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('15001 in all').waitFor();
    await page.screenshot({ path: `${SHOTS}/log-en.png` });
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByTestId('export-warning').waitFor();
    expect(await page.getByTestId('export-warning').textContent()).toContain('15001');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('export-warning').waitFor({ state: 'detached' });

    // Confirmed, the whole file comes, every formula-like remark escaped.
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.locator('.bp6-alert').getByRole('button', { name: 'Download data' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(15_002);
    expect(lines[1]).toContain(`"'=1+1"`);

    await page.locator('#log-source').selectOption('computer');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('0 in all').waitFor();
    await context.close();
  });

  it('screens in Chinese and on a phone', async () => {
    for (const path of ['/system/user', '/system/farm', '/system/poultry', '/log/index']) {
      const { context, page } = await openAs('admin', 'zh');
      await page.goto(`${server.url}${path}`);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${SHOTS}/${path.split('/').pop()}-zh.png` });
      await context.close();
    }
    const { context, page } = await openAs('farm', 'en', { width: 390, height: 844 });
    await page.goto(`${server.url}/system/user`);
    await page.getByTestId('user-shack').waitFor();
    await page.screenshot({ path: `${SHOTS}/user-phone-en.png` });
    await context.close();
  });

  for (const [language, add, said] of [
    [
      'en',
      'New user',
      {
        username: 'A login name uses letters, digits and . _ @ - only.',
        password:
          'The password needs at least 6 characters with a lowercase letter, an uppercase letter and a digit.',
        email: 'The email address is not valid.',
        rule: 'At least 6 characters, with a lowercase letter, an uppercase letter and a digit.',
      },
    ],
    [
      'zh',
      '新增用户',
      {
        username: '登录名只能包含字母、数字和 . _ @ -。',
        password: '密码至少 6 位，且须包含小写字母、大写字母和数字。',
        email: '邮箱格式不正确。',
        rule: '至少 6 位，须包含小写字母、大写字母和数字。',
      },
    ],
  ] as const) {
    it(`users: a bad field says what is wrong at the field, and nothing is sent (${language})`, async () => {
      const { context, page } = await openAs('admin', language);
      const sent: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/user/save') sent.push(request.method());
      });
      await page.goto(`${server.url}/system/user`);
      await page.getByTestId('user-shack').waitFor();
      await page.getByRole('button', { name: add }).click();
      const message = (id: string) =>
        page
          .locator('.bp6-form-group', { has: page.locator(`#user-${id}`) })
          .locator('.bp6-form-helper-text')
          .textContent();

      await page.locator('#user-username').fill('two words');
      await page.locator('#user-password').fill('weak');
      await page.locator('#user-email').fill('nowhere');
      await page.getByTestId('user-form').locator('.bp6-dialog-footer .bp6-intent-primary').click();
      await expect.poll(() => message('username')).toBe(said.username);
      expect(await message('password')).toBe(said.password);
      expect(await message('email')).toBe(said.email);
      expect(await page.locator('.bp6-form-group.bp6-intent-danger').count()).toBe(3);
      // Enter in a field is a save too: still checked first.
      await page.locator('#user-realName').press('Enter');
      await expect.poll(() => message('username')).toBe(said.username);
      expect(await page.locator('.roost-confirm-save').count()).toBe(0);

      // Mended, each problem goes as it is typed, and the save reaches its question.
      await page.locator('#user-username').fill('e2e.mended');
      await page.locator('#user-password').fill('Mended123');
      await page.locator('#user-email').fill('');
      await expect.poll(() => page.locator('.bp6-form-group.bp6-intent-danger').count()).toBe(0);
      expect(await message('password')).toBe(said.rule);
      await page.getByTestId('user-form').locator('.bp6-dialog-footer .bp6-intent-primary').click();
      await page.locator('.roost-confirm-save').waitFor();
      await page
        .locator('.roost-confirm-save .bp6-alert-footer button:not(.bp6-intent-primary)')
        .click();
      await page.locator('.roost-confirm-save').waitFor({ state: 'detached' });
      expect(sent).toEqual([]);
      await context.close();
    });
  }
});
