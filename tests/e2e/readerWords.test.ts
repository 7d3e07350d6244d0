import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { provinceByAdcode } from '../../src/contract/provinces';
import type { DemoGateway } from '../../server/demo/seed';
import { launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
let controlGateway: DemoGateway;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
  // The demo has a house behind a "control gateway": a type named by what it is, not a model.
  controlGateway = server.roost.boot.demoGateways!.find((g) => g.typeKey === 31)!;
  expect(controlGateway).toBeDefined();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('what a person reads is in their language, one rule per language', () => {
  for (const language of ['en', 'zh'] as const) {
    it(`House Setting names the gateway type and the province in ${language}`, async () => {
      const { context, page } = await openSignedIn(browser, server.url, 'admin', { language });
      await page.goto(`${server.url}/envcontrol/index?houseId=${controlGateway.houseId}`);
      const card = page.getByTestId('envcontrol-gateway');
      await card.waitFor();
      const province = provinceByAdcode(controlGateway.provinceAdcode)!;
      const text = await card.innerText();
      if (language === 'en') {
        expect(text).toContain('Control gateway');
        expect(text).toContain(province.nameEn);
        // No Chinese at all in the English console's card.
        expect(text).not.toMatch(/[\u4e00-\u9fff]/);
      } else {
        expect(text).toContain('控制网关');
        expect(text).toContain(province.nameZh);
        expect(text).not.toContain('control gateway');
      }
      await context.close();
    });

    it(`Flocks counts the birds alive as Home does, in ${language}`, async () => {
      const { context, page } = await openSignedIn(browser, server.url, 'admin', { language });
      await page.goto(`${server.url}/production/flocks`);
      const alive = page.getByTestId('kpi-alive');
      await alive.waitFor();
      await expect.poll(() => alive.innerText()).toMatch(/\d/);
      const shown = await alive.innerText();
      if (language === 'en') {
        // The whole number of birds, grouped: "Alive (birds)" over "12,850".
        expect(shown).toContain('Alive (birds)');
        expect(shown).toMatch(/\b\d{1,3}(,\d{3})+\b|\b\d{1,3}\b/);
        expect(shown).not.toMatch(/\d\.\d/);
      } else {
        // 万只, with the decimals a farmer writes.
        expect(shown).toContain('万只');
        expect(shown).toMatch(/\d+\.\d{2,3}/);
      }
      await context.close();
    });
  }
});
