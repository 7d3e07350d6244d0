import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { type MqttClient } from 'mqtt';
import { freePort } from '../helpers/processes';
import { LIVE_WAIT, launchBrowser, signIn, startServer, type TestServer } from './harness';
import { collectErrors, connectGateway } from './wallHelpers';

/**
 * The deployment's zone, and a browser far from it: the wall counts days and hours in the
 * deployment's zone whatever the screen's browser says.
 */
const DEPLOYMENT_ZONE = 'Asia/Shanghai';
const SHANGHAI_OFFSET = 8 * 3_600_000;
const BROWSER_ZONE = 'America/New_York';

let server: TestServer;
let browser: Browser;
let client: MqttClient | null = null;

beforeAll(async () => {
  const mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({
      MQTT_PORT: String(mqttPort),
      ROOST_SIMULATOR: 'off',
      ROOST_TIMEZONE: DEPLOYMENT_ZONE,
    }),
    launchBrowser(),
  ]);
}, 180_000);
afterAll(async () => {
  client?.end(true);
  await browser?.close();
  await server?.stop();
});

const HOUR = 3_600_000;

/** The last two days before the wall opens: raises and a clear at known times (ms). */
async function pastAlarms(now: number) {
  const { database } = server.roost;
  await database.query(`delete from alarms`);
  const houses = await database.query<{ id: number; farm_id: number }>(
    `select id, farm_id from houses order by id limit 4`,
  );
  const at = {
    critical: now - 3 * HOUR - 60_000,
    major: now - 26 * HOUR,
    clearedRaised: now - 40 * HOUR,
    cleared: now - 2 * HOUR - 60_000,
  };
  const insert = (i: number, severity: string, raised: number, cleared: number | null) =>
    database.query(
      `insert into alarms (house_id, farm_id, cause, subject, severity, state, raised_at,
         cleared_at, cleared_by)
       values ($1, $2, 'co2High', 'co2', $3, $4, to_timestamp($5::float8 / 1000),
         to_timestamp($6::float8 / 1000), $7)`,
      [
        houses[i]!.id,
        houses[i]!.farm_id,
        severity,
        cleared === null ? 'active' : 'cleared',
        raised,
        cleared,
        cleared === null ? null : 'condition',
      ],
    );
  await insert(0, 'critical', at.critical, null);
  await insert(1, 'major', at.major, null);
  await insert(2, 'minor', at.clearedRaised, at.cleared);
  return at;
}

interface Hour {
  start: number;
  raised: number;
  cleared: number;
  yesterdayRaised: number;
  critical: number;
}

/** The chart's 24 hours as the page draws them, oldest first. */
const hoursOf = (page: Page): Promise<Hour[]> =>
  page.locator('[data-testid="night-chart"] g[data-slot]').evaluateAll((groups) =>
    groups.map((g) => ({
      start: Date.parse(g.getAttribute('data-start')!),
      raised: Number(g.getAttribute('data-raised')),
      cleared: Number(g.getAttribute('data-cleared')),
      yesterdayRaised: Number(g.getAttribute('data-yesterday-raised')),
      critical: g.querySelectorAll('[data-severity="critical"]').length,
    })),
  );
const hourHolding = (hours: Hour[], at: number) =>
  hours.find((h) => h.start <= at && at < h.start + HOUR);
const totalOf = (page: Page, row: 'today' | 'yesterday', kind: 'raised' | 'cleared') =>
  page.getByTestId(`night-${row}`).getByTestId(kind).textContent().then(Number);

/**
 * Text of the panel drawn outside its own box or outside the panel (cut off), and the smallest
 * font size in it.
 */
const cutTexts = (page: Page) =>
  page.getByTestId('wall-night').evaluate((panel) => {
    const outer = panel.getBoundingClientRect();
    const cut: string[] = [];
    let smallest = Infinity;
    for (const element of panel.querySelectorAll<HTMLElement>('*')) {
      const own = [...element.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '',
      );
      if (!own) continue;
      const box = element.getBoundingClientRect();
      smallest = Math.min(smallest, parseFloat(getComputedStyle(element).fontSize));
      const overflows = element.scrollWidth > Math.ceil(box.width) + 1;
      const outside =
        box.left < outer.left - 0.5 ||
        box.right > outer.right + 0.5 ||
        box.top < outer.top - 0.5 ||
        box.bottom > outer.bottom + 0.5;
      if (overflows || outside) cut.push(element.textContent!.trim());
    }
    return { cut, smallest };
  });

/** Whether the chart has been drawn at its box's width (after a resize, once measured). */
const chartFits = (page: Page) =>
  page.locator('.roost-wall__night-chart').evaluate((box) => {
    const drawn = Number(box.querySelector('svg')?.getAttribute('width'));
    return Math.abs(drawn - box.getBoundingClientRect().width) < 1;
  });

describe('the night’s story on the wall', () => {
  it(
    'shows the last two days’ alarms in their hours and counts a raise while open in the current hour',
    { timeout: 300_000 },
    async () => {
      const at = await pastAlarms(Date.now());
      const gateway = await connectGateway(server);
      client = gateway.client;
      const context = await browser.newContext({
        viewport: { width: 1920, height: 1080 },
        timezoneId: BROWSER_ZONE,
      });
      const page = await context.newPage();
      const errors = collectErrors(page);
      await signIn(page, server.url, 'admin');
      await page.goto(`${server.url}/screenDatav/home?language=1`);
      await page.getByTestId('night-chart').waitFor();

      // The clock is the deployment's, and says so on a browser elsewhere.
      await expect.poll(() => page.getByTestId('wall-zone').textContent()).toBe('GMT+8');
      // Its date and hour, read again if the hour turned between the two readings.
      const shanghaiHour = () => {
        const text = new Date(Date.now() + SHANGHAI_OFFSET).toISOString();
        return `${text.slice(0, 10)} ${text.slice(11, 13)}`;
      };
      await expect
        .poll(async () => (await page.getByTestId('wall-clock').textContent())!.slice(0, 13))
        .toBe(shanghaiHour());

      const hours = await hoursOf(page);
      expect(hours).toHaveLength(24);
      expect(hourHolding(hours, at.critical)).toMatchObject({ raised: 1, critical: 1 });
      expect(hourHolding(hours, at.cleared)).toMatchObject({ cleared: 1 });
      // Raised 26 hours ago: beside the hour 2 hours ago, as yesterday's.
      expect(hourHolding(hours, at.major + 24 * HOUR)).toMatchObject({
        raised: 0,
        yesterdayRaised: 1,
      });
      expect(hours.reduce((n, h) => n + h.raised + h.cleared, 0)).toBe(2);
      // Every sixth hour is labelled with its clock in the deployment's zone.
      const labels = await page.locator('.roost-wall__night-hours span').allTextContents();
      expect(labels.length).toBeGreaterThan(0);
      for (const label of labels) expect(label).toMatch(/^(00|06|12|18):00$/);
      // The day's counts from the deployment's midnight, not the browser's.
      const midnight =
        Math.floor((Date.now() + SHANGHAI_OFFSET) / (24 * HOUR)) * 24 * HOUR - SHANGHAI_OFFSET;
      // Yesterday's figures run from its midnight to the same hour as now; which of the raises
      // fall in each day depends on the hour the test runs at, so each time is counted as such.
      const hourEnd = hours[23]!.start + HOUR;
      const between = (from: number, to: number, times: number[]) =>
        times.filter((t) => t >= from && t < to).length;
      const raises = [at.critical, at.major, at.clearedRaised];
      expect(await totalOf(page, 'today', 'raised')).toBe(between(midnight, hourEnd, raises));
      expect(await totalOf(page, 'today', 'cleared')).toBe(
        between(midnight, hourEnd, [at.cleared]),
      );
      expect(await totalOf(page, 'yesterday', 'raised')).toBe(
        between(midnight - 24 * HOUR, hourEnd - 24 * HOUR, raises),
      );
      expect(await totalOf(page, 'yesterday', 'cleared')).toBe(
        between(midnight - 24 * HOUR, hourEnd - 24 * HOUR, [at.cleared]),
      );

      // A house far too hot: the engine raises a critical alarm, counted in the current hour.
      const todayBefore = await totalOf(page, 'today', 'raised');
      const current = hours[23]!;
      await client.publishAsync(
        `roost/v1/${gateway.networkId}/telemetry`,
        JSON.stringify({ ts: Date.now(), metrics: { temperature: 45 }, mode: 1 }),
        { qos: 1 },
      );
      await expect
        .poll(async () => (await hoursOf(page)).find((h) => h.start === current.start), LIVE_WAIT)
        .toMatchObject({ raised: current.raised + 1, critical: 1 });
      expect(await totalOf(page, 'today', 'raised')).toBe(todayBefore + 1);
      // …and cleared when it cools down, below the line of the same hour.
      await client.publishAsync(
        `roost/v1/${gateway.networkId}/telemetry`,
        JSON.stringify({ ts: Date.now(), metrics: { temperature: 24 }, mode: 1 }),
        { qos: 1 },
      );
      await expect
        .poll(async () => (await hoursOf(page)).at(-1)?.cleared, LIVE_WAIT)
        .toBe(current.cleared + 1);

      // Read whole at every wall size, in both languages: nothing cut, nothing under 14 px at
      // 1080p and above.
      for (const language of ['1', '0'] as const) {
        if (language === '0') {
          await page.goto(`${server.url}/screenDatav/home?language=0`);
          await page.getByTestId('night-chart').waitFor();
          expect(await page.getByTestId('night-today').locator('th').textContent()).toBe('今日');
        }
        for (const [width, height] of [
          [1280, 720],
          [1920, 1080],
          [3840, 2160],
        ] as const) {
          await page.setViewportSize({ width, height });
          // Drawn again for the new size (ParentSize measures after a resize).
          await expect.poll(() => chartFits(page)).toBe(true);
          const { cut, smallest } = await cutTexts(page);
          expect(cut, `${width}×${height} ${language}`).toEqual([]);
          if (width >= 1920) expect(smallest).toBeGreaterThanOrEqual(14);
          const chart = await page.getByTestId('night-chart').boundingBox();
          expect(chart!.height, 'the chart has room to be read').toBeGreaterThan(height * 0.06);
        }
      }
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
