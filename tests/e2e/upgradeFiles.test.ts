import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { UPGRADE_FILE_MAX_BYTES } from '../../src/contract/upgrade';
import { freePort } from '../helpers/processes';
import { confirmSave, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

const SHOTS = '/work/shots/upgradeFiles';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({ MQTT_PORT: String(mqttPort), ROOST_SIMULATOR: 'off' }),
    launchBrowser(),
  ]);
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openHouseSetting(page: Page): Promise<void> {
  await page.goto(`${server.url}/envcontrol/index`);
  await page.getByTestId('page-envControl').waitFor();
}

/**
 * Fills the upload form and sends it, as an administrator does it; `asks`: a file of this name
 * and version is listed already, so the console asks first (and is answered yes).
 */
async function upload(
  page: Page,
  file: { name: string; bytes: Buffer },
  version: string,
  models: readonly string[],
  asks = false,
): Promise<void> {
  await page.locator('#upgrade-file-input').setInputFiles({
    name: file.name,
    mimeType: 'application/octet-stream',
    buffer: file.bytes,
  });
  await page.getByTestId('upgrade-file-version').fill(version);
  const boxes = page.getByTestId('upgrade-file-models');
  // A refused upload keeps the form as it was: start each one from no model chosen.
  for (const box of await boxes.locator('input:checked').all()) await box.uncheck({ force: true });
  for (const model of models) await boxes.getByLabel(model, { exact: true }).check({ force: true });
  await page.getByTestId('upgrade-file-upload').click();
  if (asks) await confirmSave(page);
}

/** The uploads that reached the server (a file the console refuses never does). */
function uploadsSent(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/upgrade/uploadFile')) sent.push(r.url());
  });
  return sent;
}
const question = (page: Page) => page.locator('.roost-confirm-save');

/** The card with its list as a fresh console of this size and language lays it out. */
async function shootFresh(
  language: 'en' | 'zh',
  viewport: { width: number; height: number },
  name: string,
): Promise<void> {
  const { context, page } = await openSignedIn(browser, server.url, 'admin', {
    language,
    viewport,
  });
  await openHouseSetting(page);
  await page.getByTestId('upgrade-file-row').first().waitFor();
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await context.close();
}

const refusal = (page: Page) => page.getByTestId('upgrade-file-refusal').textContent();

describe('House Setting: upgrade files', () => {
  it('lets the administrator upload a file and refuses what the product refuses', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    await openHouseSetting(page);
    const card = page.getByTestId('upgrade-files');
    await card.waitFor();
    const sent = uploadsSent(page);

    // A new file is uploaded at once: nothing is replaced, so nothing is asked.
    await upload(page, { name: 'IEC12_2_9_0', bytes: Buffer.alloc(300_000, 7) }, '2.9.0', [
      'iEC12',
      'iEC22 series',
    ]);
    const row = card.getByTestId('upgrade-file-row').filter({ hasText: 'IEC12_2_9_0' });
    await expect.poll(() => row.count()).toBe(1);
    const text = await row.textContent();
    expect(text).toContain('2.9.0');
    expect(text).toContain('iEC12, iEC22 series');
    expect(text).toContain('293 KB');
    // The form is empty again, ready for the next file.
    expect(await page.getByTestId('upgrade-file-version').inputValue()).toBe('');
    expect(await question(page).count()).toBe(0);
    expect(sent).toHaveLength(1);

    await upload(page, { name: 'fw.bin', bytes: Buffer.from('firmware') }, '3.0.0', ['iEC12']);
    await expect
      .poll(() => refusal(page))
      .toBe('An upgrade file has no suffix: rename fw.bin to fw.');
    await page.screenshot({ path: `${SHOTS}/files-en-1440.png`, fullPage: true });

    await upload(page, { name: 'empty_fw', bytes: Buffer.alloc(0) }, '3.0.1', ['iEC12']);
    await expect.poll(() => refusal(page)).toBe('The upgrade file is empty.');

    await upload(
      page,
      { name: 'big_fw', bytes: Buffer.alloc(UPGRADE_FILE_MAX_BYTES + 1, 1) },
      '3.0.2',
      ['iEC12'],
    );
    await expect.poll(() => refusal(page)).toBe('The upgrade file is larger than 5 MB.');

    await upload(page, { name: 'modelless', bytes: Buffer.from('x') }, '3.0.3', []);
    await expect.poll(() => refusal(page)).toBe('Choose the gateway type(s) the file is for.');

    // None of the refused files was stored, nor even sent, and none was asked about.
    expect(await card.getByTestId('upgrade-file-row').count()).toBe(1);
    expect(sent).toHaveLength(1);
    expect(await question(page).count()).toBe(0);

    // The same name and version again: now the console asks, naming the stored file; no
    // answers "no" and nothing is sent, yes uploads it.
    await upload(page, { name: 'IEC12_2_9_0', bytes: Buffer.alloc(1000, 9) }, '2.9.0', ['iEC12']);
    await question(page).waitFor();
    expect(await question(page).textContent()).toContain('IEC12_2_9_0 (2.9.0) is stored already');
    await page.screenshot({ path: `${SHOTS}/same-en-1440.png`, fullPage: true });
    await question(page).getByRole('button', { name: 'Cancel' }).click();
    await question(page).waitFor({ state: 'detached' });
    expect(sent).toHaveLength(1);
    await page.getByTestId('upgrade-file-upload').click();
    await confirmSave(page);
    await expect
      .poll(() => card.getByTestId('upgrade-file-row').filter({ hasText: 'IEC12_2_9_0' }).count())
      .toBe(2);
    expect(sent).toHaveLength(2);
    await context.close();
    await shootFresh('en', { width: 390, height: 844 }, 'files-en-390');
  });

  it('speaks Chinese to a Chinese administrator, on a phone too', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin', {
      language: 'zh',
      viewport: { width: 390, height: 844 },
    });
    await openHouseSetting(page);
    const card = page.getByTestId('upgrade-files');
    await card.waitFor();
    expect(await card.textContent()).toContain('升级文件');
    await upload(page, { name: 'firmware.tar.gz', bytes: Buffer.from('firmware') }, '3.1.0', [
      'iEC12',
    ]);
    await expect
      .poll(() => refusal(page))
      .toBe('升级文件不能带后缀：请将 firmware.tar.gz 重命名为 firmware。');
    await page.screenshot({ path: `${SHOTS}/files-zh-390.png`, fullPage: true });
    await context.close();
    await shootFresh('zh', { width: 1440, height: 900 }, 'files-zh-1440');
  });

  it('deletes a file after asking, in Chinese, and keeps the others', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin', { language: 'zh' });
    await openHouseSetting(page);
    const card = page.getByTestId('upgrade-files');
    await card.waitFor();
    await upload(page, { name: 'IEC12_9_9_9', bytes: Buffer.from('wrong firmware') }, '9.9.9', [
      'iEC12',
    ]);
    const rows = card.getByTestId('upgrade-file-row');
    const wrong = rows.filter({ hasText: 'IEC12_9_9_9' });
    await expect.poll(() => wrong.count()).toBe(1);
    const before = await rows.count();

    await wrong.getByRole('button', { name: '删除 IEC12_9_9_9' }).click();
    expect(await page.getByTestId('confirm-delete').textContent()).toContain('IEC12_9_9_9 (9.9.9)');
    // The question as it stands once it has opened, not halfway through its fade.
    await page.locator('.bp6-overlay-enter-done .bp6-alert').waitFor();
    await page.screenshot({ path: `${SHOTS}/delete-zh-1440.png`, fullPage: true });
    await page.locator('.bp6-alert').getByRole('button', { name: '删除', exact: true }).click();
    await expect.poll(() => wrong.count()).toBe(0);
    expect(await rows.count()).toBe(before - 1);
    await expect.poll(() => page.getByText('升级文件已删除').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('is not shown to a role that may not upload', async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'company');
    await openHouseSetting(page);
    await page.getByTestId('envcontrol-picker').waitFor();
    expect(await page.getByTestId('upgrade-files').count()).toBe(0);
    await context.close();
  });
});
