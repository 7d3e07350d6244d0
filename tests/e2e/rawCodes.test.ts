import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { FUNCTION_KEYS, OPERATION_KEYS } from '../../src/contract/operationLog';
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

const CODES = new Set<string>([...FUNCTION_KEYS, ...OPERATION_KEYS]);

describe('the operation log shows no stored key to people', () => {
  for (const language of ['en', 'zh'] as const) {
    it(`neither in its cells nor in their tooltips (${language})`, async () => {
      const { context, page } = await openSignedIn(browser, server.url, 'admin', { language });
      await page.goto(`${server.url}/log/index`);
      const cells = page.locator('[data-testid="page-log"] tbody td');
      await cells.first().waitFor();
      // Everything a person can read there: the text, and what hovering shows.
      const shown = await cells.evaluateAll((tds) =>
        tds.flatMap((td) => [td.textContent ?? '', td.getAttribute('title') ?? '']),
      );
      expect(shown.filter((text) => CODES.has(text.trim()))).toEqual([]);
      await context.close();
    });
  }
});
