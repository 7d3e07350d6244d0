import { chromium, type Browser, type Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../server/demo/demoFarms';
import { houseLiveState } from '../tests/helpers/houseStates';
import type { RunningRoost } from '../server/roost';
import { KIOSK_SCREEN_PATH } from '../src/contract/wallKiosk';
import type { WallLayout } from '../src/contract/wallLayout';
import { kioskToken } from './wallLayouts';

/** What the wall benches (wall.ts, wallLatency.ts) share: their farms, their load, their page. */

/** The 7 demo provinces: extra farms spread over them. */
const PROVINCES = ['370000', '130000', '210000', '410000', '440000', '510000', '320000'];

export interface BenchHouse {
  id: number;
  farm_id: number;
}

/** `count` farms of one house each ("Bench farm N"), spread over the demo's provinces. */
export async function addBenchFarms(roost: RunningRoost, count: number): Promise<BenchHouse[]> {
  const { database } = roost;
  await database.query(
    `insert into farms (org_id, parent_id, level, name, province_adcode, province_name, longitude, latitude)
     select (select id from organizations order by id limit 1), null, 'farm', 'Bench farm ' || g,
       ($2::text[])[1 + g % 7], 'bench', 100 + random() * 22, 22 + random() * 20
     from generate_series(1, $1::int) g`,
    [count, PROVINCES],
  );
  return database.query<BenchHouse>(
    `insert into houses (farm_id, name) select id, 'H' from farms where name like 'Bench farm %' returning id, farm_id`,
  );
}

/** A running load: how many seconds it published, and its end. */
export interface WallLoad {
  ticks(): number;
  stop(): void;
}

/**
 * Every one of `houses` changes once a second through the live hub, as a busy installation's
 * would: a fifth offline in turn, a new temperature each. With `alarms`, one farm in 17 has an
 * open alarm, a different one each second (the ranking and the ticker then change each
 * second); without, none has (a raised farm then ranks first, as wallLatency.ts needs).
 */
export function startWallLoad(
  roost: RunningRoost,
  houses: readonly BenchHouse[],
  { alarms }: { alarms: boolean },
): WallLoad {
  let tick = 0;
  const timer = setInterval(() => {
    tick += 1;
    const states = houses.map((h, i) =>
      houseLiveState(h.id, {
        farmId: h.farm_id,
        online: (i + tick) % 5 !== 0,
        metrics: { temperature: 20 + ((i + tick) % 10) },
        alarmCount: alarms && (i + tick) % 17 === 0 ? 1 : 0,
      }),
    );
    roost.live.publishStates(states);
  }, 1_000);
  return { ticks: () => tick, stop: () => clearInterval(timer) };
}

/**
 * Headless Chromium drawing WebGL in software (SwiftShader): no GPU on this machine. By default
 * it composites in software too (--disable-gpu), so every redrawn WebGL canvas is read back to
 * the page's main thread, which waits for SwiftShader's raster (bench/wallTrace.ts). With
 * BENCH_WALL_COMPOSITING=gpu the GPU process composites and draws WebGL (chrome://gpu:
 * "Compositing: Hardware accelerated", on SwiftShader), as with a real GPU: the canvas is never
 * read back, and its cost stays in the GPU process, still on this machine's two cores. The page's
 * other content is rastered in software (--disable-gpu-rasterization: "Rasterization: Software
 * only"), as fast as SwiftShader's or faster (the same latency figures in both).
 */
export function launchWallBrowser(extraArgs: string[] = []): Promise<Browser> {
  const gpuCompositing = process.env.BENCH_WALL_COMPOSITING === 'gpu';
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      ...(gpuCompositing
        ? ['--ignore-gpu-blocklist', '--disable-gpu-rasterization']
        : ['--disable-gpu']),
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      ...extraArgs,
    ],
  });
}

/**
 * The wall in English, as the demo's administrator, or (with `layout`) as a kiosk link of every
 * farm showing only those panels; resolved once the map is drawn and the stream is live.
 */
export async function openBenchWall(
  page: Page,
  url: string,
  layout: WallLayout | null = null,
): Promise<void> {
  if (layout) {
    const token = await kioskToken(url, layout);
    await page.goto(`${url}${KIOSK_SCREEN_PATH}?language=1#${token}`);
  } else {
    await page.goto(`${url}/login`);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.locator('input[name="code"]').fill('x');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.goto(`${url}/screenDatav/home?language=1`);
  }
  await page
    .locator('[data-testid="wall-map"][data-map-loaded="true"][data-deck-rendered="true"]')
    .waitFor({ timeout: 300_000 });
  await page
    .locator('[data-testid="wall-freshness"][data-live-state="live"]')
    .waitFor({ timeout: 300_000 });
}
