import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { readConfig } from '../server/config';
import { DEMO_PASSWORD } from '../server/demo/demoFarms';
import type { HouseLiveState } from '../server/ingest/types';
import { startRoost } from '../server/roost';

/**
 * The wall under load: FARMS extra farms (one house each) whose houses all change once a second
 * through the live hub; frame times in the browser while they do, and the JS heap after a
 * warm-up vs after BENCH_WALL_MINUTES more. Figures, never assertions. Needs a build:
 * BENCH_DIST_DIR (default .tmp/dist-wall). `npx tsx bench/wall.ts`.
 */
const FARMS = Number(process.env.BENCH_WALL_FARMS ?? 10_000);
const MINUTES = Number(process.env.BENCH_WALL_MINUTES ?? 1);
/** Long enough for the first snapshot, the map and the JIT to settle before measuring. */
const WARM_UP_MS = Number(process.env.BENCH_WALL_WARMUP_MS ?? 30_000);
/** Issue 7: the farm points update once per second. */
const UPDATE_EVERY_MS = 1_000;
/** The 7 demo provinces: extra farms spread over them. */
const PROVINCES = ['370000', '130000', '210000', '410000', '440000', '510000', '320000'];

async function main(): Promise<void> {
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    MQTT_PORT: '0',
    ROOST_DEMO: '1',
    ROOST_CAPTCHA: 'off',
    ROOST_SIMULATOR: 'off',
    LOG_LEVEL: 'silent',
  });
  const staticDir = path.resolve(process.env.BENCH_DIST_DIR ?? '.tmp/dist-wall');
  const roost = await startRoost({ ...config, staticDir });
  const { database } = roost;
  await database.query(
    `insert into farms (org_id, parent_id, level, name, province_adcode, province_name, longitude, latitude)
     select (select id from organizations order by id limit 1), null, 'farm', 'Bench farm ' || g,
       ($2::text[])[1 + g % 7], 'bench', 100 + random() * 22, 22 + random() * 20
     from generate_series(1, $1::int) g`,
    [FARMS, PROVINCES],
  );
  const houses = await database.query<{ id: number; farm_id: number }>(
    `insert into houses (farm_id, name) select id, 'H' from farms where name like 'Bench farm %' returning id, farm_id`,
  );
  console.log(`${FARMS} farms, ${houses.length} houses added`);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--js-flags=--expose-gc',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.goto(`${roost.url}/login`);
  await page.locator('input[name="username"]').fill('admin');
  await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
  await page.locator('input[name="code"]').fill('x');
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.goto(`${roost.url}/screenDatav/home?language=1`);
  await page
    .locator('[data-testid="wall-map"][data-map-loaded="true"][data-deck-rendered="true"]')
    .waitFor({ timeout: 120_000 });
  await page
    .locator('[data-testid="wall-freshness"][data-live-state="live"]')
    .waitFor({ timeout: 120_000 });

  let tick = 0;
  const timer = setInterval(() => {
    tick += 1;
    const states: HouseLiveState[] = houses.map((h, i) => ({
      houseId: h.id,
      farmId: h.farm_id,
      online: (i + tick) % 5 !== 0,
      network: 'wired',
      gatewayVersion: null,
      onlineSince: null,
      lastSeenAt: new Date(),
      lastTs: new Date(),
      mode: 1,
      metrics: { temperature: 20 + ((i + tick) % 10) },
      faults: {},
      devices: {},
      alarmCount: (i + tick) % 17 === 0 ? 1 : 0,
      alarmTop: null,
    }));
    roost.live.onStatus(states);
  }, UPDATE_EVERY_MS);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heapMb = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    return Math.round((metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1e5) / 10;
  };
  // A string, not a function: tsx's keep-names helper (__name) does not exist in the page.
  const frames = async (ms: number) =>
    page.evaluate<number[]>(`new Promise((resolve) => {
      const times = [];
      let last = performance.now();
      const end = last + ${ms};
      const step = (now) => {
        times.push(now - last);
        last = now;
        if (now < end) requestAnimationFrame(step);
        else resolve(times);
      };
      requestAnimationFrame(step);
    })`);
  const pct = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

  await page.waitForTimeout(WARM_UP_MS);
  const heapWarm = await heapMb();
  const sample = (await frames(20_000)).sort((a, b) => a - b);
  await page.waitForTimeout(Math.max(0, MINUTES * 60_000 - 20_000));
  const heapEnd = await heapMb();
  clearInterval(timer);

  const result = {
    at: new Date().toISOString(),
    farms: FARMS,
    minutes: MINUTES,
    frameMs: {
      p50: pct(sample, 0.5),
      p95: pct(sample, 0.95),
      max: sample.at(-1) ?? 0,
      frames: sample.length,
    },
    heapMb: {
      afterWarmUp: heapWarm,
      afterRun: heapEnd,
      growth: Math.round((heapEnd - heapWarm) * 10) / 10,
    },
    note: 'headless Chromium on SwiftShader (software WebGL): frame times are an upper bound',
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/wall.json', `${JSON.stringify(result, null, 2)}\n`);
  await browser.close();
  await roost.close();
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
