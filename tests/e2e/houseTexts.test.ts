import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { hashToken } from '../../server/auth/tokens';
import { LIVE_WAIT, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A demo gateway with a known token, which sends over HTTP as gateways without MQTT do. */
async function gateway(offset: number) {
  const { database } = server.roost;
  const [row] = await database.query<{
    id: number;
    network_id: string;
    house_id: number;
    house_name: string;
  }>(
    `select g.id, g.network_id, g.house_id, h.name as house_name
     from gateways g join houses h on h.id = g.house_id order by g.id offset $1 limit 1`,
    [offset],
  );
  if (!row) throw new Error('no demo gateway');
  const token = `texts-${row.id}`;
  await database.query('update gateways set token_hash = $1 where id = $2', [
    hashToken(token),
    row.id,
  ]);
  server.roost.ingest.directory.forget(row.network_id);
  const send = async (body: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/api/ingest/${row.network_id}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ts: Date.now(), ...body }),
    });
    expect(response.status).toBe(200);
  };
  return { row, send };
}

describe('what houses say, in both languages', () => {
  it('the monitor names run modes 97 and 98 in en and zh', async () => {
    const { row, send } = await gateway(3);
    const shown: string[] = [];
    for (const [mode, language] of [
      [97, 'en'],
      [98, 'en'],
      [97, 'zh'],
      [98, 'zh'],
    ] as const) {
      await send({ metrics: { temperature: 24.5 }, mode });
      const { context, page } = await openSignedIn(browser, server.url, 'admin', { language });
      await page.goto(`${server.url}/shack/status/monitor?houseId=${row.house_id}`);
      const text = page.getByTestId('monitor-mode');
      await expect.poll(() => text.textContent(), LIVE_WAIT).not.toBe('—');
      shown.push((await text.textContent()) ?? '');
      await context.close();
    }
    expect(shown).toEqual(['Error', 'External stop', '故障', '外部停止']);
  });

  it('the card of a house whose gateway went silent says "Gateway offline" / "网关离线"', async () => {
    const { row, send } = await gateway(4);
    await send({ metrics: { temperature: 24.5 }, mode: 1 });
    // Silent for 3 × 1 s: the sweep calls it offline and the alarm engine raises the alarm.
    await server.roost.database.query('update gateways set interval_seconds = 1 where id = $1', [
      row.id,
    ]);
    server.roost.ingest.directory.forget(row.network_id);
    for (const [language, words] of [
      ['en', 'Gateway offline'],
      ['zh', '网关离线'],
    ] as const) {
      const { context, page } = await openSignedIn(browser, server.url, 'admin', { language });
      await page.goto(`${server.url}/shack/status/overview`);
      await page.getByTestId('overview-search').fill(row.house_name);
      const card = page.locator(`[data-testid="house-card"][data-house-id="${row.house_id}"]`);
      await expect.poll(() => card.getByTestId('card-alarm').textContent(), LIVE_WAIT).toBe(words);
      await context.close();
    }
  });

  it("the monitor's curves write their unit above the value axis", async () => {
    const { row, send } = await gateway(5);
    await send({ metrics: { temperature: 24.5, humidity: 60, co2: 900, nh3: 5 }, mode: 1 });
    const { context, page } = await openSignedIn(browser, server.url, 'admin', {
      language: 'zh',
    });
    await page.goto(`${server.url}/shack/status/monitor?houseId=${row.house_id}`);
    const units = page.locator('[data-testid="monitor-curves"] [data-testid="chart-unit"]');
    await expect.poll(() => units.count(), LIVE_WAIT).toBe(4);
    expect(await units.allTextContents()).toEqual(['℃', '%', 'ppm', 'ppm']);
    await context.close();
  });

  it('a house without readings says so instead of drawing axes with one repeated time', async () => {
    const { row } = await gateway(9);
    for (const [language, words] of [
      ['en', 'No readings in this period'],
      ['zh', '此时段暂无数据'],
    ] as const) {
      const { context, page } = await openSignedIn(browser, server.url, 'admin', { language });
      await page.goto(`${server.url}/shack/status/monitor?houseId=${row.house_id}`);
      const curves = page.getByTestId('monitor-curves');
      // CO2 and NH3 have nothing to draw; temperature and humidity draw the breed's line when
      // the house has a flock whose breed sets one, and nothing else.
      const empty = curves.getByTestId('chart-empty');
      await expect.poll(() => empty.count(), LIVE_WAIT).toBeGreaterThanOrEqual(2);
      expect(await curves.getByTestId('chart-legend').count()).toBe(4);
      expect(new Set(await empty.allTextContents())).toEqual(new Set([words]));
      expect(
        await curves
          .locator('path[data-series]:not([stroke-dasharray]):not([data-points="0"])')
          .count(),
      ).toBe(0);
      await context.close();
    }
  });
});
