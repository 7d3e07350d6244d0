import { topUpHouses } from './seedHouses';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../server/demo/demoFarms';
import type { HouseLiveState } from '../server/houses/state';
import { type RunningRoost } from '../server/roost';
import { testDatabaseTargets } from '../tests/helpers/databases';
import { houseLiveState } from '../tests/helpers/houseStates';
import { startConsoleServer } from './consoleServer';

/**
 * The house overview with HOUSES houses: time to first render of the card grid, and
 * frame times while UPDATES_PER_S house updates a second arrive through the live hub. A real
 * server (PGlite) and the built console (BENCH_DIST_DIR, default dist/) in headless Chromium.
 * Figures, never assertions. `BENCH_ONLY=overview npm run bench` or `npx tsx bench/overview.ts`.
 */
const HOUSES = Number(process.env.BENCH_OVERVIEW_HOUSES ?? 5_000);
const UPDATES_PER_S = Number(process.env.BENCH_OVERVIEW_UPDATES ?? 1_000);
/** First renders measured, each a fresh page load (the median is reported). */
const LOADS = Number(process.env.BENCH_OVERVIEW_LOADS ?? 5);
const FRAME_SAMPLE_MS = Number(process.env.BENCH_OVERVIEW_SAMPLE_MS ?? 20_000);
/** The hub batches at most 4 times a second per socket: updates are pushed at that rate. */
const PUSH_EVERY_MS = 250;
const HOUSES_PER_FARM = 100;
/**
 * The database the server runs on: `postgres` (a database of the run's own on TEST_DATABASE_URL)
 * or `pglite`. By default PostgreSQL from 20,000 houses on, the "one node with
 * PostgreSQL", when there is one; the embedded database below that.
 */
const DATABASE =
  process.env.BENCH_OVERVIEW_DATABASE ??
  (HOUSES >= 20_000 && process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
/** BENCH_OVERVIEW_TRACE=1: the page's console, navigations and /api timings on stderr. */
const TRACE = process.env.BENCH_OVERVIEW_TRACE === '1';
/** BENCH_OVERVIEW_PROFILE=file.cpuprofile: the page's CPU profile of one more first render. */
const PROFILE = process.env.BENCH_OVERVIEW_PROFILE;

export interface FrameFigures {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  frames: number;
  /** House deltas the page's socket received per second while sampling (parsed frames). */
  deltasReceivedPerSecond: number;
  /** Long tasks (> 50 ms) on the page's main thread while sampling, and their total ms. */
  longTasks: number;
  longTaskMs: number;
  /** Load average (1 min) of this machine at the start and end of the sample. */
  loadAverage: [number, number];
  /** Changes in the grid's DOM per second while sampling: the updates did reach the screen. */
  domChangesPerSecond: number;
  longAnimationFrames: number;
  blockingMs: number;
}

export interface OverviewBench {
  houses: number;
  database: 'pglite' | 'postgres';
  firstRenderMs: { median: number; runs: number[] };
  /** The overview's houses answer: bytes on the wire (compressed) and of its JSON. */
  answerBytes: { onWire: number; json: number };
  updatesPerSecond: number;
  sortedByFarm: FrameFigures;
  sortedByStatus: FrameFigures;
  note: string;
}

/**
 * Tops the demo's 42 houses up to HOUSES with set-based SQL (a few statements, seconds even on
 * PGlite): farms of 100 houses, an open broiler flock each, and a live state each, as the
 * overview would find them after a day of telemetry.
 */
export async function seed(roost: RunningRoost): Promise<Array<{ id: number; farm_id: number }>> {
  const { database } = roost;
  await topUpHouses(database, {
    houses: HOUSES,
    perFarm: HOUSES_PER_FARM,
    farmPrefix: 'Bench farm',
    provinces: ['370000'],
  });
  await database.query(
    `insert into house_state (house_id, online, network, last_seen_at, last_ts, mode, metrics)
     select h.id, h.id % 23 <> 0, 'wired', now(), now(), 1,
       jsonb_build_object('temperature', 20 + h.id % 9, 'temperature_target', 24, 'humidity', 60,
         'co2', 1800, 'nh3', 8, 'ventilation_level', h.id % 6, 'alive', 19800)
     from houses h on conflict (house_id) do nothing`,
  );
  return database.query<{ id: number; farm_id: number }>(
    'select id, farm_id from houses order by id',
  );
}

/** Navigation start → the frame in which the grid shows cards and the filter counts all houses. */
async function firstRender(page: Page, url: string): Promise<number> {
  await page.goto(`${url}/shack/status/overview`, { waitUntil: 'commit' });
  // A function, not a string: the console's CSP forbids eval. It declares no inner functions,
  // so tsx's keep-names helper (__name, absent in the page) is not added to it.
  const handle = await page
    .waitForFunction(
      (houses) => {
        const all = document.querySelector('[data-testid="count-all"]');
        const card = document.querySelector('[data-testid="house-card"]');
        return all && card && all.textContent === String(houses) ? performance.now() : false;
      },
      HOUSES,
      { polling: 'raf', timeout: 300_000 },
    )
    .catch(async (error: unknown) => {
      // Say what the page showed instead, so a failed run can be told apart from a slow one.
      const seen = await page.evaluate(
        `({ url: location.href, all: document.querySelector('[data-testid="count-all"]')?.textContent,
          cards: document.querySelectorAll('[data-testid="house-card"]').length })`,
      );
      console.error('first render not reached:', JSON.stringify(seen));
      throw error;
    });
  const at = Math.round(Number(await handle.jsonValue()));
  if (TRACE) {
    // Where the first render's time went: the page's start, the houses' request, the rest.
    const timing = await page.evaluate(`(() => {
      const e = performance.getEntriesByType('resource')
        .filter((r) => r.name.includes('/api/overview/listOverview/')).pop();
      const n = performance.getEntriesByType('navigation')[0];
      const r = (v) => Math.round(v);
      return e ? { domContentLoaded: r(n.domContentLoadedEventEnd), asked: r(e.startTime),
        firstByte: r(e.responseStart), lastByte: r(e.responseEnd) } : null;
    })()`);
    console.error(`[first render ${at} ms] ${JSON.stringify(timing)}`);
  }
  return at;
}

interface FrameSample {
  frames: number[];
  changes: number;
  loafs: number;
  blockingMs: number;
  longTasks: number;
  longTaskMs: number;
}

/**
 * requestAnimationFrame deltas for FRAME_SAMPLE_MS, the grid's DOM changes (proof the updates
 * reach the screen) and long animation frames (PerformanceObserver, Chromium ≥ 123).
 */
function sampleFrames(page: Page): Promise<FrameSample> {
  // A string, not a function: tsx's keep-names helper (__name) does not exist in the page.
  return page.evaluate<FrameSample>(`new Promise((resolve) => {
    const frames = [];
    let changes = 0, loafs = 0, blockingMs = 0, longTasks = 0, longTaskMs = 0;
    const grid = document.querySelector('[data-testid="house-grid"]');
    const mo = new MutationObserver((records) => { changes += records.length; });
    mo.observe(grid, { subtree: true, characterData: true, childList: true });
    let po = null;
    try {
      po = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) { loafs += 1; blockingMs += e.blockingDuration || 0; }
      });
      po.observe({ type: 'long-animation-frame', buffered: false });
    } catch {}
    let lt = null;
    try {
      lt = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) { longTasks += 1; longTaskMs += e.duration; }
      });
      lt.observe({ type: 'longtask', buffered: false });
    } catch {}
    let last = performance.now();
    const end = last + ${FRAME_SAMPLE_MS};
    const step = (now) => {
      frames.push(now - last);
      last = now;
      if (now < end) requestAnimationFrame(step);
      else {
        mo.disconnect(); po && po.disconnect(); lt && lt.disconnect();
        resolve({ frames, changes, loafs, blockingMs, longTasks, longTaskMs });
      }
    };
    requestAnimationFrame(step);
  })`);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

export async function benchOverview(): Promise<OverviewBench> {
  const postgres =
    DATABASE === 'postgres' ? testDatabaseTargets().find((t) => t.name === 'postgres') : undefined;
  if (DATABASE === 'postgres' && !postgres)
    throw new Error('BENCH_OVERVIEW_DATABASE=postgres needs TEST_DATABASE_URL');
  const created = await postgres?.create();
  const roost = await startConsoleServer(
    created?.target.kind === 'postgres' ? created.target.url : undefined,
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  let timer: ReturnType<typeof setInterval> | undefined;
  try {
    const houses = await seed(roost);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    if (TRACE) {
      const t0 = Date.now();
      page.on('console', (m) => console.error(`[page ${m.type()}] ${m.text()}`));
      page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
      page.on('framenavigated', (f) => {
        if (f === page.mainFrame()) console.error(`[nav +${Date.now() - t0} ms] ${f.url()}`);
      });
      page.on('requestfinished', (r) => {
        if (!r.url().includes('/api/')) return;
        const t = r.timing();
        void r
          .response()
          .then((res) =>
            console.error(
              `[api +${Date.now() - t0} ms] ${res?.status()} ${r.method()} ${new URL(r.url()).pathname} ${Math.round(t.responseEnd)} ms`,
            ),
          );
      });
      page.on('requestfailed', (r) =>
        console.error(`[api failed] ${r.url()} ${r.failure()?.errorText}`),
      );
    }
    await page.goto(`${roost.url}/login`);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.locator('input[name="code"]').fill('x');
    await page.locator('button[type="submit"]').click();
    try {
      // Sign-in hashes with argon2id: slow on a loaded machine.
      await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 120_000 });
    } catch (error) {
      await page.screenshot({ path: '.tmp/bench-overview-signin.png' });
      throw error;
    }

    // House deltas the page's socket receives (Socket.IO text frames `42["house:updated",…]`).
    let received = 0;
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (typeof payload !== 'string' || !payload.startsWith('42["house:updated"')) return;
        const [, batch] = JSON.parse(payload.slice(2)) as [string, { deltas: unknown[] }];
        received += batch.deltas.length;
      }),
    );

    const runs: number[] = [];
    for (let i = 0; i < LOADS; i++) runs.push(await firstRender(page, roost.url));
    if (PROFILE) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      if (process.env.BENCH_OVERVIEW_TRACE_FILE)
        await browser.startTracing(page, {
          path: process.env.BENCH_OVERVIEW_TRACE_FILE,
          categories: [
            'devtools.timeline',
            'v8.execute',
            'disabled-by-default-devtools.timeline',
            'blink.user_timing',
            'v8',
          ],
        });
      await firstRender(page, roost.url);
      if (process.env.BENCH_OVERVIEW_TRACE_FILE) await browser.stopTracing();
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(PROFILE, JSON.stringify(profile));
      await cdp.detach();
    }
    // The houses' answer as it crossed the wire (compressed) and as JSON, from the last visit's
    // resource timing: what a farm's link carries on every visit.
    const answerBytes = await page.evaluate<{ onWire: number; json: number }>(`(() => {
      const e = performance.getEntriesByType('resource')
        .filter((r) => r.name.includes('/api/overview/listOverview/')).pop();
      return { onWire: e ? e.encodedBodySize : 0, json: e ? e.decodedBodySize : 0 };
    })()`);
    await page
      .locator('[data-testid="live-indicator"][data-state="live"]')
      .waitFor({ timeout: 60_000 });

    // UPDATES_PER_S distinct houses a second, round the whole list, each a new temperature.
    let cursor = 0;
    let tick = 0;
    const perPush = Math.round((UPDATES_PER_S * PUSH_EVERY_MS) / 1_000);
    timer = setInterval(() => {
      tick += 1;
      const states: HouseLiveState[] = [];
      for (let k = 0; k < perPush; k++) {
        const h = houses[cursor]!;
        cursor = (cursor + 1) % houses.length;
        states.push(
          houseLiveState(h.id, {
            farmId: h.farm_id,
            // A delta carries the whole metrics object: keep the seeded ones, change the temperature.
            metrics: {
              temperature: 20 + ((h.id + tick) % 90) / 10,
              temperature_target: 24,
              humidity: 60,
              co2: 1800,
              nh3: 8,
              ventilation_level: h.id % 6,
              alive: 19800,
            },
            alarmCount: (h.id + tick) % 97 === 0 ? 1 : 0,
          }),
        );
      }
      roost.live.publishStates(states);
    }, PUSH_EVERY_MS);
    await page.waitForTimeout(5_000);
    const round = (v: number) => Math.round(v * 10) / 10;
    const frameFigures = (s: FrameSample, deltas: number, load: [number, number]) => {
      const sorted = [...s.frames].sort((a, b) => a - b);
      return {
        p50: round(pct(sorted, 0.5)),
        p95: round(pct(sorted, 0.95)),
        p99: round(pct(sorted, 0.99)),
        max: round(sorted.at(-1) ?? 0),
        frames: sorted.length,
        deltasReceivedPerSecond: Math.round(deltas / (FRAME_SAMPLE_MS / 1_000)),
        longTasks: s.longTasks,
        longTaskMs: Math.round(s.longTaskMs),
        loadAverage: load,
        domChangesPerSecond: Math.round(s.changes / (FRAME_SAMPLE_MS / 1_000)),
        longAnimationFrames: s.loafs,
        blockingMs: Math.round(s.blockingMs),
      };
    };
    await page.screenshot({ path: '.tmp/bench-overview.png' });
    const sample = async () => {
      const load1 = os.loadavg()[0]!;
      const before = received;
      const frames = await sampleFrames(page);
      const load: [number, number] = [round(load1), round(os.loadavg()[0]!)];
      return frameFigures(frames, received - before, load);
    };
    const byFarm = await sample();
    // Sorted by status, an update that flips a house into or out of alarm moves cards too:
    // the most work a batch can cause.
    await page.getByTestId('overview-sort').selectOption('status');
    await page.waitForTimeout(3_000);
    const byStatus = await sample();
    return {
      houses: houses.length,
      database: created ? 'postgres' : 'pglite',
      firstRenderMs: {
        median: pct(
          [...runs].sort((a, b) => a - b),
          0.5,
        ),
        runs,
      },
      answerBytes,
      updatesPerSecond: UPDATES_PER_S,
      sortedByFarm: byFarm,
      sortedByStatus: byStatus,
      note:
        'updates enter through the live hub (LiveHub.publishStates, what ingest calls after storing), ' +
        'not MQTT: the bench houses have no gateways. First render: navigation start → the ' +
        'first animation frame showing a card and count-all = all houses. Headless Chromium, ' +
        'software rendering, a shared 2-core machine, under nice 19',
    };
  } finally {
    if (timer) clearInterval(timer);
    await browser.close();
    await roost.close();
    await created?.drop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  void benchOverview()
    .then((result) => console.log(JSON.stringify(result, null, 2)))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
