import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { ENROL_CODE_MINUTES, ENROL_CODE_PATTERN } from '../../src/contract/enrol';
import { demoHouse, launchBrowser, openPage, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
const SHOTS = process.env.E2E_SHOTS_DIR;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const ACTION = { en: 'Enrolment code for Roost Edge', zh: 'Roost Edge 注册码' };
const CLOSE = { en: 'Close', zh: '关闭' };

describe('an enrolment code for a house’s gateway, from the console', () => {
  const cases = [
    { language: 'en', viewport: { width: 1440, height: 900 }, house: 'House 1' },
    { language: 'zh', viewport: { width: 1440, height: 900 }, house: 'House 2' },
    { language: 'en', viewport: { width: 390, height: 844 }, house: 'House 4' },
    { language: 'zh', viewport: { width: 390, height: 844 }, house: 'House 5' },
  ] as const;
  for (const { language, viewport, house } of cases)
    it(`shows the code once with the command to type, and the code enrols the edge (${language}, ${viewport.width})`, async () => {
      const errors: string[] = [];
      const { farm_id: farmId } = await demoHouse(server, house);
      const [gateway] = await server.roost.database.query<{ network_id: string }>(
        `select g.network_id from gateways g join houses h on h.id = g.house_id
         where h.farm_id = $1 and h.name = $2`,
        [farmId, house],
      );
      const page = await openPage(browser, server, 'admin', '/system/farm', {
        language,
        viewport,
        errors,
      });
      await page.getByText('Weifang Broiler Farm', { exact: true }).first().click();
      const row = page.getByTestId('house-panel').getByTestId(`house-${house}`);
      const before = Date.now();
      await row.getByRole('button', { name: ACTION[language] }).click();
      const code = (await page.getByTestId('enrol-code').textContent()) ?? '';
      expect(code).toMatch(ENROL_CODE_PATTERN);
      const command = (await page.getByTestId('enrol-command').textContent()) ?? '';
      expect(command).toBe(
        `npm run edge -- enroll ${code} --server ${server.url} --house '${house}' --config edge.json`,
      );
      const dialog = page.locator('.bp6-alert');
      expect(await dialog.textContent()).toContain(gateway!.network_id);
      // The long command wraps inside the dialog: nothing of it (or of the warning) runs out.
      const overflowing = await dialog.evaluate((box) => {
        const right = box.getBoundingClientRect().right;
        return [...box.querySelectorAll('pre, p, .bp6-callout')]
          .filter(
            (el) =>
              el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > right + 1,
          )
          .map((el) => el.textContent);
      });
      expect(overflowing).toEqual([]);
      // The expiry as a clock time, ENROL_CODE_MINUTES from now (the browser's time zone).
      const expires = new Date(before + ENROL_CODE_MINUTES * 60_000);
      const clock = `${String(expires.getHours()).padStart(2, '0')}:${String(expires.getMinutes()).padStart(2, '0')}`;
      const later = new Date(expires.getTime() + 60_000);
      const clockLater = `${String(later.getHours()).padStart(2, '0')}:${String(later.getMinutes()).padStart(2, '0')}`;
      const text = (await dialog.textContent()) ?? '';
      expect(text.includes(clock) || text.includes(clockLater)).toBe(true);
      expect(text).toContain(language === 'en' ? 'Shown only now' : '仅显示这一次');
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}/enrol-code-${language}-${viewport.width}.png` });
      await dialog.getByRole('button', { name: CLOSE[language], exact: true }).click();
      await page.getByTestId('enrol-code').waitFor({ state: 'detached' });

      // What the person then types on the edge's box trades the code for the credentials.
      const res = await fetch(`${server.url}/api/edge/enrol`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { networkId: string } };
      expect(body.data.networkId).toBe(gateway!.network_id);
      await page.context().close();
      expect(errors).toEqual([]);
    });
});
