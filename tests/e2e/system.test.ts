import { mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { confirmSave, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

const SHOTS = '.tmp/screens-admin';

/** Opens the farm form for a new farm below North China Broilers Co., named, in Shandong. */
async function newFarmInShandong(page: Page, name: string): Promise<void> {
  await page.getByText('North China Broilers Co.', { exact: true }).click();
  await page.getByRole('button', { name: 'Add below' }).click();
  await page.locator('#field-name').fill(name);
  await page.locator('#field-provinceAdcode').selectOption('370000');
}

/** Waits out a transition (a dialog zooming in): the element's box the same 100 ms apart. */
async function standingStill(element: Locator): Promise<void> {
  await expect
    .poll(async () => {
      const before = JSON.stringify(await element.boundingBox());
      await new Promise((resolve) => setTimeout(resolve, 100));
      return JSON.stringify(await element.boundingBox()) === before;
    })
    .toBe(true);
}

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

const openAs = (user: string, password?: string) =>
  openSignedIn(browser, server.url, user, { password });

/** A real w × h PNG (RGBA, one orange colour): small, but one the browser decodes and draws. */
function pngImage(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4, 0)]);
  for (let x = 0; x < width; x += 1) row.set([0xf2, 0x8c, 0x28, 0xff], 1 + x * 4);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('system management, end to end', () => {
  it('an organisation logo uploaded on the org page shows in the top bar after a reload', async () => {
    const { context, page } = await openAs('admin');
    await page.goto(`${server.url}/system/org`);
    const row = page.getByTestId('org-GPP');
    await row.waitFor();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      row.getByRole('button', { name: 'Logo' }).click(),
    ]);
    await chooser.setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngImage(48, 24) });
    await page.getByText('Logo uploaded').first().waitFor();

    const logo = page.getByTestId('navbar-home').getByTestId('org-logo');
    await logo.waitFor(); // at once, without a reload
    await page.reload();
    await logo.waitFor();
    expect(await logo.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    // Decoded and drawn: the browser knows the image's real size.
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth]))
      .toEqual([true, 48]);
    await context.close();
  });

  it('a user an administrator creates belongs to the organisation chosen, and sees its logo', async () => {
    const tag = Date.now().toString(36).slice(-5).toUpperCase();
    const orgName = `Hillside Eggs ${tag}`;
    const username = `e2e.org.${tag.toLowerCase()}`;
    const [org] = await server.roost.database.query<{ id: number }>(
      'insert into organizations (name, code, logo) values ($1, $2, $3) returning id',
      [orgName, `HSE${tag}`, pngImage(32, 16)],
    );
    await server.roost.database.query(
      "insert into farms (org_id, level, name) values ($1, 'company', $2)",
      [org!.id, `${orgName} Co.`],
    );
    const { context, page } = await openAs('admin');
    await page.goto(`${server.url}/system/user`);
    await page.getByRole('button', { name: 'New user' }).click();
    await page.locator('#user-username').fill(username);
    await page.locator('#user-password').fill('Keeper12345');
    await page.locator('#user-role').selectOption('company_manager');
    await page.locator('#user-org').selectOption({ label: orgName });
    await page.locator('#user-company').selectOption({ label: `${orgName} Co.` });
    await page.getByRole('button', { name: 'Save' }).click();
    await confirmSave(page);
    await page.getByTestId(`user-${username}`).waitFor();
    await context.close();

    const [row] = await server.roost.database.query<{ org: string }>(
      'select o.name as org from users u join organizations o on o.id = u.org_id where u.username = $1',
      [username],
    );
    expect(row?.org).toBe(orgName);
    const member = await openAs(username, 'Keeper12345');
    const logo = member.page.getByTestId('navbar-home').getByTestId('org-logo');
    await logo.waitFor();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);
    await member.context.close();
  });

  it('Farm Manage at 1440 px: the house table fits its card, no column behind the actions', async () => {
    const { context, page } = await openAs('admin');
    await page.goto(`${server.url}/system/farm`);
    await page.getByText('Weifang Broiler Farm', { exact: true }).click();
    const panel = page.getByTestId('house-panel');
    await panel.getByTestId('house-House 1').waitFor();
    const fit = await panel.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
    // The flock's breed, placement date and head count are on the row, in view.
    expect(await panel.getByTestId('house-House 1').textContent()).toMatch(/Head count \d/);
    await page.screenshot({ path: `${SHOTS}/farm-houses-1440.png` });
    await context.close();
  });

  it('places a new farm at the capital of its province, then exactly where its map is clicked', async () => {
    const farmName = `E2E Placed ${Date.now().toString(36).slice(-5).toUpperCase()}`;
    const { context, page } = await openAs('admin');
    await page.goto(`${server.url}/system/farm`);
    await newFarmInShandong(page, farmName);
    // Jinan, until the map says otherwise.
    expect(await page.locator('#field-longitude').inputValue()).toBe('117.0009');
    expect(await page.locator('#field-latitude').inputValue()).toBe('36.6758');
    await page.getByTestId('position-marker').waitFor();

    const map = page.getByTestId('position-picker').locator('svg');
    // The dialog zooms in as it opens: measure the map once it stands still.
    await standingStill(map);
    const box = (await map.boundingBox())!;
    await map.click({ position: { x: box.width * 0.8, y: box.height * 0.4 } });
    const longitude = Number(await page.locator('#field-longitude').inputValue());
    const latitude = Number(await page.locator('#field-latitude').inputValue());
    // The east of Shandong (114.8–122.7 °E, 34.4–38.4 °N), at four decimals.
    expect(longitude).toBeGreaterThan(119.5);
    expect(longitude).toBeLessThan(122.7);
    expect(latitude).toBeGreaterThan(35.5);
    expect(latitude).toBeLessThan(38.4);
    expect(String(longitude)).toMatch(/^\d+\.\d{1,4}$/);
    const marker = (await page.getByTestId('position-marker').boundingBox())!;
    expect(Math.abs(marker.x + marker.width / 2 - (box.x + box.width * 0.8))).toBeLessThan(2);
    expect(Math.abs(marker.y + marker.height / 2 - (box.y + box.height * 0.4))).toBeLessThan(2);
    await page.getByRole('button', { name: 'Save' }).click();
    await confirmSave(page);

    // Stored as picked: the edit form shows it again.
    await page.getByText(farmName, { exact: true }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await page.locator('#field-provinceAdcode').inputValue()).toBe('370000');
    expect(Number(await page.locator('#field-longitude').inputValue())).toBe(longitude);
    expect(Number(await page.locator('#field-latitude').inputValue())).toBe(latitude);
    await standingStill(page.getByTestId('position-marker'));
    await page.screenshot({ path: `${SHOTS}/farm-position-en.png` });
    await context.close();
  });

  it('a house manager given two new houses sees exactly those two', async () => {
    // Names of this attempt's own: the e2e config retries a failed test once.
    const tag = Date.now().toString(36).slice(-5).toUpperCase();
    const farmName = `E2E Farm ${tag}`;
    const username = `e2e.two.${tag.toLowerCase()}`;
    const { context, page } = await openAs('admin');
    await page.goto(`${server.url}/system/farm`);

    await newFarmInShandong(page, farmName);
    await page.locator('#field-longitude').fill('118.35');
    await page.locator('#field-latitude').fill('35.05');
    await page.getByRole('button', { name: 'Save' }).click();
    await confirmSave(page);
    await page.getByText(farmName, { exact: true }).click();

    // Two houses; the first gets a gateway whose device token is shown once.
    const panel = page.getByTestId('house-panel');
    for (const name of ['E2E House A', 'E2E House B']) {
      await panel.getByRole('button', { name: 'New house' }).click();
      await page.locator('#field-name').fill(name);
      await page.getByRole('button', { name: 'Save' }).click();
      await confirmSave(page);
      await panel.getByTestId(`house-${name}`).waitFor();
    }
    const houseA = panel.getByTestId('house-E2E House A');
    await houseA.getByRole('button', { name: 'Add gateway' }).click();
    await page.locator('#field-networkId').fill(`GWE2E${tag}`);
    await page.locator('#field-typeKey').selectOption('25');
    await page.getByRole('button', { name: 'Save' }).click();
    await confirmSave(page);
    const token = (await page.getByTestId('gateway-token').textContent()) ?? '';
    expect(token).toMatch(/^[\w-]{43,}$/);
    await page.locator('.bp6-alert').getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByTestId('gateway-token').waitFor({ state: 'detached' });
    await expect.poll(() => houseA.textContent()).toContain(`GWE2E${tag}`);
    expect(await page.content()).not.toContain(token);

    // A house manager for exactly those two houses.
    await page.goto(`${server.url}/system/user`);
    await page.getByRole('button', { name: 'New user' }).click();
    await page.locator('#user-username').fill(username);
    await page.locator('#user-password').fill('Keeper12345');
    await page.locator('#user-realName').fill('Two Houses');
    await page.locator('#user-role').selectOption('shack_manager');
    const assign = page.getByTestId('assign-shackIds');
    const count = page.getByTestId('assign-shackIds-count');
    const total = Number(/of (\d+)/.exec((await count.textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThan(40);
    // Among every house of the demo, the filter leaves this farm's two.
    await page.getByTestId('assign-shackIds-filter').fill(farmName.toLowerCase());
    await expect
      .poll(() => assign.locator('label').allTextContents())
      .toEqual([`${farmName} / E2E House A`, `${farmName} / E2E House B`]);
    await assign.getByText(`${farmName} / E2E House A`).click();
    await assign.getByText(`${farmName} / E2E House B`).click();
    expect(await count.textContent()).toBe(`2 of ${total} chosen`);
    await page.screenshot({ path: `${SHOTS}/user-assign-en.png` });
    await page.getByRole('button', { name: 'Save' }).click();
    await confirmSave(page);
    await page.getByTestId(`user-${username}`).waitFor();
    await context.close();

    const keeper = await openAs(username, 'Keeper12345');
    await keeper.page.goto(`${server.url}/shack/status/overview`);
    await keeper.page.getByTestId('house-grid').waitFor();
    const names = keeper.page.getByTestId('house-card').getByTestId('card-name');
    await expect.poll(() => names.count()).toBe(2);
    expect((await names.allTextContents()).sort()).toEqual(['E2E House A', 'E2E House B']);
    // The API behind every house list answers the same two houses, nothing of the demo's 42.
    const houses = await keeper.page.evaluate(async () => {
      const token = document.cookie.match(/(?:^|; )Admin-Token=([^;]+)/)?.[1] ?? '';
      const res = await fetch('/api/overview/listOverview/', {
        headers: { authorization: `Bearer ${decodeURIComponent(token)}` },
      });
      const body = (await res.json()) as {
        data: { houseName: string }[] | { rows: { houseName: string }[] };
      };
      const rows = Array.isArray(body.data) ? body.data : body.data.rows;
      return rows.map((r) => r.houseName).sort();
    });
    expect(houses).toEqual(['E2E House A', 'E2E House B']);
    await keeper.page.screenshot({ path: `${SHOTS}/two-houses-en.png` });
    await keeper.context.close();
  });
});
