import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { FUNCTION_KEYS, OPERATION_KEYS } from '../../src/contract/operationLog';
import { writeOperationLog } from '../../server/oplog';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
let token: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
  // What the alarm engine records (a cause and its subject's key) for a fan in error and a
  // controller's own alarms, and a user added through the API with a role.
  const roost = { id: null, name: 'Roost' };
  for (const [id, cause, metric] of [
    [1, 'deviceError', 'fan_1'],
    [2, 'controllerAlarm', 'probe_3_disconnected'],
    [3, 'controllerAlarm', 'fan_failure'],
  ] as const)
    await writeOperationLog(server.roost.database.db, {
      operator: roost,
      function: 'alarm.raise',
      operation: { key: 'alarm', params: { cause, metric, id } },
      source: 'other',
    });
  // Saved settings, as the routes record them: the JSON of keys and values, and before.
  await writeOperationLog(server.roost.database.db, {
    operator: roost,
    function: 'envcontrol.send',
    operation: {
      key: 'configCommand',
      params: {
        command: '8f0c2d1e-0000-4000-8000-000000000000',
        values: '{"alarm_temp_high":33}',
        before: '{"alarm_temp_high":35}',
      },
    },
    source: 'other',
  });
  await writeOperationLog(server.roost.database.db, {
    operator: roost,
    function: 'alarm.raise',
    operation: { key: 'alarm', params: { cause: 'controllerAlarm', metric: 'err_17', id: 4 } },
    source: 'other',
  });
  const login = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD, codeId: '', code: 'x' }),
  });
  token = ((await login.json()) as { data: { token: string } }).data.token;
  const saved = await fetch(`${server.url}/api/user/save`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      username: 'tester1',
      password: 'Keeper12345',
      roleKey: 'shack_manager',
    }),
  });
  expect(saved.status).toBe(200);
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

/** Codes a gateway or the role table stores, which a person must never be shown. */
const RAW =
  /fan_1|probe_3_disconnected|fan_failure|shack_manager|\bdeviceError\b|alarm_temp_high|\{"|· err_17/;

describe('the operation log words devices, controller codes and roles', () => {
  for (const language of ['en', 'zh'] as const) {
    it(`on the page and in its CSV (${language})`, async () => {
      const { context, page } = await openSignedIn(browser, server.url, 'admin', { language });
      await page.goto(`${server.url}/log/index`);
      const table = page.locator('[data-testid="page-log"] tbody');
      await table.locator('td').first().waitFor();
      const shown = (await table.innerText()).split('\n');
      expect(shown.filter((line) => RAW.test(line))).toEqual([]);
      const fan = language === 'zh' ? '设备故障 · 风机 1 #1' : 'Device error · Fan 1 #1';
      expect(shown.some((line) => line.includes(fan))).toBe(true);
      const limit = language === 'zh' ? '高温报警 35 ℃ → 33 ℃' : 'High temperature 35 ℃ → 33 ℃';
      expect(shown.some((line) => line.includes(limit))).toBe(true);
      await context.close();

      const csv = await fetch(`${server.url}/api/log/export?format=csv`, {
        headers: {
          authorization: `Bearer ${token}`,
          Locale: language === 'zh' ? 'zh-CN' : 'en-US',
        },
      });
      const rows = (await csv.text()).split('\n');
      expect(rows.filter((row) => RAW.test(row))).toEqual([]);
      const probe = language === 'zh' ? '温度探头 3 未接入' : 'Temperature probe 3 not connected';
      expect(rows.some((row) => row.includes(probe))).toBe(true);
      expect(rows.some((row) => row.includes(limit))).toBe(true);
      const role = language === 'zh' ? '新增用户 · 栏舍管理员' : 'Add user · House manager';
      expect(rows.some((row) => row.includes(role))).toBe(true);
    });
  }
});
