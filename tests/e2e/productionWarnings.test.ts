import { mkdirSync } from 'node:fs';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmSave, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

const SHOTS = process.env.PRODUCTION_SHOTS_DIR ?? '/work/shots/production';
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
  // A breed of the demo company's own: common breeds are read-only and copied to be changed.
  await server.roost.database.query(
    `insert into breeds (name, code, org_id, is_common, operator)
     select 'Own Broiler', 'OWN-BR', org_id, false, 'test' from farms where name = 'Weifang Broiler Farm'`,
  );
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const breedLimits = async () =>
  (
    await server.roost.database.query<{ limits: unknown }>(
      `select l.limits from breed_warning_limits l join breeds b on b.id = l.breed_id
       where b.code = 'OWN-BR'`,
    )
  ).map((r) => (typeof r.limits === 'string' ? (JSON.parse(r.limits) as unknown) : r.limits));

async function openBreed(page: Page) {
  await page.goto(`${server.url}/system/poultry`);
  await page.getByTestId('breed-OWN-BR').click();
  const card = page.getByTestId('breed-detail').getByTestId('warning-limits');
  await card.getByTestId('limit-waterDropPct').waitFor();
  return card;
}

describe('early-warning limits in the browser', () => {
  it("a breed's water-drop limit is set after the save question, and a limit out of range is refused", async () => {
    const { context, page } = await openSignedIn(browser, server.url, 'admin');
    let card = await openBreed(page);
    const water = card.getByTestId('limit-waterDropPct');
    expect(await water.getAttribute('placeholder')).toBe('Inherited: 25');

    // Out of range: the field says why and the save button waits.
    await water.fill('1');
    await card.getByText('Enter a number from 5 to 90').waitFor();
    expect(await card.getByTestId('save-warning-limits').isDisabled()).toBe(true);

    await water.fill('18');
    await card.getByRole('checkbox', { name: 'Weight gain slowing · On' }).uncheck({ force: true });
    await card.getByTestId('save-warning-limits').click();
    // Nothing is stored until the question is answered.
    await page.locator('.roost-confirm-save').waitFor();
    expect(await breedLimits()).toEqual([]);
    await confirmSave(page);
    await page.locator('.bp6-toast', { hasText: 'Early-warning limits saved' }).waitFor();
    expect(await breedLimits()).toEqual([{ waterDropPct: 18, weightGainSlow: false }]);
    const [log] = await server.roost.database.query<{ n: number }>(
      `select count(*)::int as n from operation_logs where function = 'production.warnings.breed'`,
    );
    expect(log!.n).toBe(1);

    // Read back after a reload.
    await page.reload();
    card = await openBreed(page);
    expect(await card.getByTestId('limit-waterDropPct').inputValue()).toBe('18');
    expect(await card.getByRole('checkbox', { name: 'Weight gain slowing · On' }).isChecked()).toBe(
      false,
    );
    await context.close();
  });

  it("a house's override on Flocks and KPIs shows what it inherits; screenshots", async () => {
    for (const language of ['en', 'zh'] as const)
      for (const [size, viewport] of [
        ['1440', WIDE],
        ['390', PHONE],
      ] as const) {
        const { context, page } = await openSignedIn(browser, server.url, 'farm', {
          language,
          viewport,
        });
        await page.goto(`${server.url}/production/flocks`);
        const card = page.getByTestId('warning-limits');
        await card.getByTestId('limit-feedOffPct').waitFor();
        if (language === 'en')
          expect(await card.getByTestId('limit-feedOffPct').getAttribute('placeholder')).toBe(
            'Inherited: 15',
          );
        await card.scrollIntoViewIfNeeded();
        await card.screenshot({ path: `${SHOTS}/house-warnings-${size}-${language}.png` });
        await context.close();
      }
    const { context, page } = await openSignedIn(browser, server.url, 'admin', {
      language: 'zh',
    });
    await page.goto(`${server.url}/system/poultry`);
    await page.getByTestId('breed-OWN-BR').click();
    await page.getByTestId('warning-limits').waitFor();
    await page
      .getByTestId('breed-detail')
      .screenshot({ path: `${SHOTS}/breed-warnings-1440-zh.png` });
    await context.close();
  });
});
