import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchBrowser, openSignedIn, signIn, startServer, type TestServer } from './harness';

let server: TestServer;
let lihua: TestServer;
let browser: Browser;

beforeAll(async () => {
  // The default server logs its errors: a refused change is then explained in the output.
  [server, lihua, browser] = await Promise.all([
    startServer({ LOG_LEVEL: 'error' }),
    startServer({ ROOST_EDITION: 'lihua' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), lihua?.stop()]);
});

async function signedIn(url: string, user: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
  });
  const page = await context.newPage();
  await signIn(page, url, user);
  return page;
}

async function openDialog(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('menu-change-password').click();
  await page.getByTestId('change-password-form').waitFor();
}

const field = (page: Page, name: string) => page.getByTestId(`password-${name}`);
/** The message under a field (its FormGroup's helper text). */
const message = (page: Page, name: string) =>
  page
    .locator('.bp6-form-group', { has: field(page, name) })
    .locator('.bp6-form-helper-text')
    .textContent();

describe('the change password dialog', () => {
  it('tells each rule when a field is left', async () => {
    const page = await signedIn(server.url, 'area');
    await openDialog(page);
    await field(page, 'oldPassword').focus();
    await field(page, 'newPassword').focus();
    await expect.poll(() => message(page, 'oldPassword')).toBe('Enter the old password.');
    await field(page, 'confirmPassword').focus();
    await expect.poll(() => message(page, 'newPassword')).toBe('Enter the new password.');
    await field(page, 'oldPassword').focus();
    await expect.poll(() => message(page, 'confirmPassword')).toBe('Enter the new password again.');

    await field(page, 'newPassword').fill('abcdef1');
    await field(page, 'confirmPassword').focus();
    await expect
      .poll(() => message(page, 'newPassword'))
      .toBe(
        'The password needs at least 6 characters with a lowercase letter, an uppercase letter and a digit.',
      );
    await field(page, 'confirmPassword').fill('abcdef2');
    await field(page, 'oldPassword').focus();
    await expect
      .poll(() => message(page, 'confirmPassword'))
      .toBe('The passwords are not the same.');

    // Closed and opened again: an empty form without messages.
    await page.keyboard.press('Escape');
    await page.getByTestId('change-password-form').waitFor({ state: 'detached' });
    await openDialog(page);
    await expect(field(page, 'newPassword').inputValue()).resolves.toBe('');
    await expect(page.locator('.bp6-form-group.bp6-intent-danger').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('changes the password after a confirmation: only the new one signs in afterwards', async () => {
    const page = await signedIn(server.url, 'farm');
    await openDialog(page);
    await field(page, 'oldPassword').fill('Roost12345');
    await field(page, 'newPassword').fill('Changed123');
    await field(page, 'confirmPassword').fill('Changed123');
    await page.getByTestId('password-submit').click();
    const confirm = page.locator('.roost-password-confirm');
    await confirm.waitFor();
    await confirm.locator('.bp6-button.bp6-intent-warning').click();
    await page.locator('.bp6-toast', { hasText: 'Password changed.' }).waitFor();
    await page.getByTestId('change-password-form').waitFor({ state: 'detached' });

    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.waitForURL('**/login?redirect=*');
    await page.locator('input[name="username"]').fill('farm');
    await page.locator('input[name="password"]').fill('Roost12345');
    await page.locator('input[name="code"]').fill('any');
    await page.locator('button[type="submit"]').click();
    await page.locator('.bp6-toast', { hasText: 'Wrong user name or password.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');

    await signIn(page, server.url, 'farm', 'Changed123');
    await page.getByTestId('layout').waitFor();
    await page.context().close();
  });

  it('tells a wrong old password and stays open', async () => {
    const page = await signedIn(server.url, 'company');
    await openDialog(page);
    await field(page, 'oldPassword').fill('NotMine123');
    await field(page, 'newPassword').fill('Changed123');
    await field(page, 'confirmPassword').fill('Changed123');
    await page.getByTestId('password-submit').click();
    await page.locator('.roost-password-confirm .bp6-button.bp6-intent-warning').click();
    await page.locator('.bp6-toast', { hasText: 'The old password is wrong.' }).waitFor();
    await expect(page.getByTestId('change-password-form').count()).resolves.toBe(1);
    await page.context().close();
  });

  it('sends nothing while a field shows a problem, whether saved by button or Enter (zh)', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin', { language: 'zh' });
    const sent: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/user/modifyPwd') sent.push(request.method());
    });
    await openDialog(page);
    await field(page, 'oldPassword').fill('Roost12345');
    await field(page, 'newPassword').fill('Changed123');
    await field(page, 'confirmPassword').fill('Changed124');
    await field(page, 'confirmPassword').press('Enter');
    await expect.poll(() => message(page, 'confirmPassword')).toBe('两次输入的密码不一致。');
    await page.getByTestId('password-submit').click();
    expect(await message(page, 'confirmPassword')).toBe('两次输入的密码不一致。');
    expect(await page.locator('.roost-password-confirm').count()).toBe(0);

    // A new password changed to the one confirmed mends the confirmation at once.
    await field(page, 'newPassword').fill('Changed124');
    const flagged = page.locator('.bp6-form-group.bp6-intent-danger');
    await expect.poll(() => flagged.count()).toBe(0);
    await field(page, 'newPassword').fill('short');
    await field(page, 'confirmPassword').fill('short');
    await field(page, 'confirmPassword').press('Enter');
    await expect
      .poll(() => message(page, 'newPassword'))
      .toBe('密码至少 6 位，且须包含小写字母、大写字母和数字。');
    expect(await page.locator('.roost-password-confirm').count()).toBe(0);

    // Mended: the question comes; answered with cancel, still nothing was sent.
    await field(page, 'newPassword').fill('Changed124');
    await field(page, 'confirmPassword').fill('Changed124');
    await field(page, 'confirmPassword').press('Enter');
    const question = page.locator('.roost-password-confirm');
    await question.waitFor();
    expect(await question.innerText()).toContain('确定修改密码？');
    await question.locator('.bp6-alert-footer button:not(.bp6-intent-warning)').click();
    await question.waitFor({ state: 'detached' });
    expect(sent).toEqual([]);
    await context.close();
  });

  it('demands 10 characters in the lihua edition', async () => {
    const page = await signedIn(lihua.url, 'area');
    await openDialog(page);
    await field(page, 'newPassword').fill('Abcdefgh1');
    await field(page, 'confirmPassword').focus();
    await expect
      .poll(() => message(page, 'newPassword'))
      .toBe(
        'The password needs at least 10 characters with a lowercase letter, an uppercase letter and a digit.',
      );
    await field(page, 'newPassword').fill('Abcdefghi1');
    await field(page, 'confirmPassword').focus();
    await expect
      .poll(() => message(page, 'newPassword'))
      .toBe('At least 10 characters, with a lowercase letter, an uppercase letter and a digit.');
    await page.context().close();
  });
});
