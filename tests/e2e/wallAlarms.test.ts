import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { type MqttClient } from 'mqtt';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { freePort } from '../helpers/processes';
import { LIVE_WAIT, launchBrowser, signIn, startServer, type TestServer } from './harness';
import { collectErrors, connectGateway } from './wallHelpers';

let server: TestServer;
let browser: Browser;
let client: MqttClient | null = null;

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({ MQTT_PORT: String(mqttPort), ROOST_SIMULATOR: 'off' }),
    launchBrowser(),
  ]);
}, 180_000);
afterAll(async () => {
  client?.end(true);
  await browser?.close();
  await server?.stop();
});

const SEVERITIES = ['minor', 'critical', 'major'] as const;

/**
 * The night before the wall opens: 20 alarms raised over the last hours on the demo's houses,
 * the 5 oldest cleared since, and one acknowledged by a named operator.
 */
async function pastAlarms(): Promise<void> {
  const { database } = server.roost;
  await database.query(`delete from alarms`);
  const houses = await database.query<{ id: number; farm_id: number }>(
    `select id, farm_id from houses order by id limit 20`,
  );
  for (const [i, house] of houses.entries()) {
    const cleared = i >= 15;
    await database.query(
      `insert into alarms (house_id, farm_id, cause, subject, severity, state, value, limit_value,
         raised_at, cleared_at, cleared_by, acknowledged_at, acknowledged_by)
       values ($1, $2, 'temperatureHigh', 'temperature', $3, $4, 33.4, 30,
         now() - make_interval(mins => $5::int),
         case when $4 = 'cleared' then now() - make_interval(mins => 5) end,
         case when $4 = 'cleared' then 'condition' end,
         case when $4 = 'acknowledged' then now() end,
         case when $4 = 'acknowledged' then 'Wang Fang' end)`,
      [
        house.id,
        house.farm_id,
        SEVERITIES[i % 3],
        cleared ? 'cleared' : i === 4 ? 'acknowledged' : 'active',
        30 + i * 17,
      ],
    );
  }
}

/** The rows the wall lists, top to bottom. */
const rowsOf = (page: Page) =>
  page.locator('[data-testid="wall-alarms"] li[data-alarm-id]').evaluateAll((rows) =>
    rows.map((row) => ({
      id: Number(row.getAttribute('data-alarm-id')),
      severity: row.getAttribute('data-severity'),
      acknowledged: row.getAttribute('data-acknowledged') === 'true',
      age: row.querySelector('[data-testid="alarm-age"]')?.textContent ?? '',
      ack: row.querySelector('[data-testid="alarm-ack"]')?.textContent ?? '',
      text: row.textContent ?? '',
      whole:
        row.getBoundingClientRect().bottom <=
        row.parentElement!.getBoundingClientRect().bottom + 0.5,
    })),
  );
const moreOf = async (page: Page) => {
  const more = page.getByTestId('alarms-more');
  return (await more.count()) === 0 ? 0 : Number(/\d+/.exec((await more.textContent()) ?? '')![0]);
};

describe('what is wrong now, on the wall', () => {
  it(
    'lists the open alarms of the night worst first with their age and acknowledgement, and follows raises and acknowledgements live',
    { timeout: 300_000 },
    async () => {
      await pastAlarms();
      const gateway = await connectGateway(server);
      client = gateway.client;
      const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
      const page = await context.newPage();
      const errors = collectErrors(page);
      await signIn(page, server.url, 'admin');
      await page.goto(`${server.url}/screenDatav/home?language=1`);
      await page.locator('[data-testid="wall-alarms"] li[data-alarm-id]').first().waitFor();
      await page.screenshot({ path: '.tmp/wall-shots/wall-alarms-1920-en.png' });

      // The 15 still open, none of the 5 cleared: as many as the panel holds whole, the rest counted.
      expect(await page.getByTestId('alarms-total').textContent()).toBe('15 open');
      const rows = await rowsOf(page);
      expect(rows.length).toBeGreaterThanOrEqual(5);
      expect(rows.length + (await moreOf(page))).toBe(15);
      expect(rows.every((r) => r.whole)).toBe(true);
      // Worst first: every critical, then major, then minor; inside each, the oldest first.
      const rank = (s: string | null) => SEVERITIES.indexOf(s as never);
      const order = [1, 2, 0];
      const ranks = rows.map((r) => order.indexOf(rank(r.severity)));
      expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
      expect(rows[0]!.severity).toBe('critical');
      // The oldest critical was raised 30 + 13·17 = 251 minutes ago (ages move by the minute).
      expect(rows[0]!.age).toMatch(/^4 h 1[01] min$/);
      expect(rows[0]!.text).toContain('Temperature too high');
      expect(rows[0]!.text).toContain('33.4\u00a0℃ (limit 30\u00a0℃)');
      expect(rows[0]!.ack).toBe('Not acknowledged');
      const acknowledged = rows.find((r) => r.acknowledged);
      if (acknowledged) expect(acknowledged.ack).toBe('Acknowledged by Wang Fang');
      else {
        // Below the fold: the rows it holds are all graver than the acknowledged (minor) one.
        expect(rows.every((r) => r.severity !== 'minor')).toBe(true);
      }

      // Who needs someone: farms ranked by the open alarms their houses report live.
      const [house] = await server.roost.database.query<{ farm_id: number }>(
        `select farm_id from houses where id = $1`,
        [gateway.houseId],
      );
      const rankingRow = page.locator(
        `[data-testid="wall-ranking-row"][data-farm-id="${house!.farm_id}"]`,
      );
      const rankedAlarms = async () =>
        (await rankingRow.count()) === 0 ? 0 : Number(await rankingRow.getAttribute('data-alarms'));
      const alarmsBefore = await rankedAlarms();
      // A house far too hot: the engine raises a critical alarm, on the list at once (after the
      // criticals open longer), and its farm counts it in the ranking.
      await client!.publishAsync(
        `roost/v1/${gateway.networkId}/telemetry`,
        JSON.stringify({ ts: Date.now(), metrics: { temperature: 45 }, mode: 1 }),
        { qos: 1 },
      );
      await expect
        .poll(() => page.getByTestId('alarms-total').textContent(), LIVE_WAIT)
        .toBe('16 open');
      const [raised] = await server.roost.database.query<{ id: number; severity: string }>(
        `select id, severity from alarms where house_id = $1 and cause = 'temperatureHigh' and state <> 'cleared'`,
        [gateway.houseId],
      );
      const row = page.locator(`[data-testid="wall-alarms"] li[data-alarm-id="${raised!.id}"]`);
      await row.waitFor({ timeout: LIVE_WAIT.timeout });
      expect(await row.locator('[data-testid="alarm-age"]').textContent()).toBe('just now');
      expect(await row.textContent()).toContain('45\u00a0℃');
      await expect.poll(rankedAlarms, LIVE_WAIT).toBe(alarmsBefore + 1);
      // Worst first.
      const ranked = await page
        .getByTestId('wall-ranking-row')
        .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-alarms'))));
      expect(ranked.length).toBeGreaterThan(0);
      expect([...ranked].sort((a, b) => b - a)).toEqual(ranked);

      // Touching the farm in the ranking drills the map into it.
      await rankingRow.click();
      await expect.poll(() => rankingRow.getAttribute('data-selected'), LIVE_WAIT).toBe('true');
      await page.getByTestId('wall-drill').waitFor({ timeout: LIVE_WAIT.timeout });
      // Its houses with their last hours: the hot house's reading is on its curve.
      const curve = page.locator(
        `[data-testid="drill-house"][data-house-id="${gateway.houseId}"] [data-testid="drill-curve"]`,
      );
      await curve.waitFor({ timeout: LIVE_WAIT.timeout });
      expect(Number(await curve.getAttribute('data-points'))).toBeGreaterThanOrEqual(1);
      await page.screenshot({ path: '.tmp/wall-shots/wall-ranking-drill-1920-en.png' });
      await page.mouse.click(5, 5);

      // An operator acknowledges it in the console: the wall names them.
      const login = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD, codeId: '', code: 'x' }),
      });
      const token = ((await login.json()) as { data: { token: string } }).data.token;
      const ack = await fetch(`${server.url}/api/alarm/acknowledge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ id: raised!.id }),
      });
      expect(ack.status).toBe(200);
      await expect.poll(() => row.getAttribute('data-acknowledged'), LIVE_WAIT).toBe('true');
      expect(await row.getByTestId('alarm-ack').textContent()).toMatch(/^Acknowledged by .+/);

      // The house cools down: the engine clears the alarm, and its row leaves the wall.
      await client!.publishAsync(
        `roost/v1/${gateway.networkId}/telemetry`,
        JSON.stringify({ ts: Date.now(), metrics: { temperature: 24 }, mode: 1 }),
        { qos: 1 },
      );
      await row.waitFor({ state: 'detached', timeout: LIVE_WAIT.timeout });
      expect(await page.getByTestId('alarms-total').textContent()).toBe('15 open');

      // Nothing open any more (the night's alarms gone): the list says since when, naming the
      // alarm that ended last.
      await server.roost.database.query(`delete from alarms where id <> $1`, [raised!.id]);
      await page.reload();
      await page.getByTestId('alarms-none').waitFor({ timeout: LIVE_WAIT.timeout });
      expect(await page.getByTestId('alarms-none').textContent()).toMatch(
        /^No open alarm since \d{2}:\d{2} \(last: Temperature too high, .+ · .+\)$/,
      );
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
