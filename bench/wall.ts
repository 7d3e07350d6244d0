import { mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { STATUS_STRIDE } from '../src/contract/live';
import type { WallLayout } from '../src/contract/wallLayout';
import { parseLayout } from './wallLayouts';
import {
  addBenchFarms,
  launchWallBrowser,
  openBenchWall,
  startWallLoad,
  type WallLoad,
} from './wallLoad';
import { startConsoleServer } from './consoleServer';
import {
  perUpdateWindows,
  scriptCpuPerSecond,
  scriptPerUpdateWindows,
  splitLongTasks,
  STATUS_MARK,
  type LongTaskSplit,
} from './wallTrace';

/**
 * The wall under load: FARMS extra farms (one house each) whose houses all change once
 * a second through the live hub. Frame times in the browser while they do (20 s after a
 * warm-up), and the JS heap after 5 minutes of updates vs after BENCH_WALL_MINUTES (goal: within
 * 10 %). Figures, never assertions. Needs a build: BENCH_DIST_DIR (default dist).
 * `npx tsx bench/wall.ts`, or `BENCH_ONLY=wall npm run bench`. BENCH_WALL_PROFILE=file.cpuprofile
 * records 10 s (BENCH_WALL_PROFILE_MS) of the page's CPU after the warm-up (build with --minify false to read it);
 * BENCH_WALL_ALLOCATIONS=file.heapprofile samples 10 s of its allocations, garbage included
 * (BENCH_WALL_ALLOCATIONS_OF=old: only what dies in the old generation);
 * BENCH_WALL_SNAPSHOT=file.heapsnapshot keeps a heap snapshot;
 * BENCH_WALL_TRACE=file.json keeps the 60 s Chromium trace taken after the sample;
 * BENCH_WALL_TRACE_SAMPLES=1 adds V8's sampling profiler to that trace, to see what a slow update
 * ran (the sampling costs the page time of its own: not for figures).
 * BENCH_WALL_LAYOUT=counters,today,legend|ticker opens the wall of a kiosk link showing only
 * those panels (left column, then right), instead of the administrator's full wall.
 */
const FARMS = Number(process.env.BENCH_WALL_FARMS ?? 10_000);
/** Long enough for the first snapshot, the map and the JIT to settle before measuring. */
const WARM_UP_MS = Number(process.env.BENCH_WALL_WARMUP_MS ?? 30_000);
/** The farm points update once per second, as a busy installation's would. */
const UPDATE_EVERY_MS = 1_000;
const FRAME_SAMPLE_MS = 20_000;
/** The heap after 30 minutes is compared with the heap after 5. */
const HEAP_BASE_MINUTES = 5;
/**
 * 60 one-second updates: 58 windows of 3 s, whose p95 (nearest rank) is the third largest. Up to
 * session 43 the trace was 20 s, and the p95 of its 17-18 windows was their largest: one major
 * GC's window decided the figure.
 */
const TRACE_MS = 60_000;
/** What a Chromium trace records to tell our script from the browser's own work in a long task. */
const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink',
  'gpu',
  'cc',
  // performance.mark: each status batch the page takes in (STATUS_MARK).
  'blink.user_timing',
  ...(process.env.BENCH_WALL_TRACE_SAMPLES ? ['disabled-by-default-v8.cpu_profiler'] : []),
];

export interface WallBenchResult {
  at: string;
  farms: number;
  minutes: number;
  frameMs: { p50: number; p95: number; max: number; frames: number };
  /**
   * Main-thread time per second (one update each second), from Chromium's Performance metrics:
   * script (JS, our update and deck.gl/MapLibre's draw calls) apart from style and layout; the
   * raster is SwiftShader's, in the GPU process, and not in these.
   */
  /**
   * The main thread's CPU time in script per update, from the trace: each 3 s window's script
   * per house change it took in, times the changes taken in a second (scriptPerUpdateWindows). What the
   * update costs the page, without the time a loaded machine descheduled it (see
   * scriptCpuPerSecond). The figure the goal is judged on.
   */
  scriptCpuMs: { p50: number; p95: number; max: number; windows: number };
  /**
   * The same script divided by the window's seconds (perUpdateWindows), as measured up to
   * session 36: it counts a window holding two of SwiftShader's bursts as 3 updates.
   */
  scriptCpuPerSecondMs: { p50: number; p95: number; max: number; windows: number };
  /** House changes and KiB a second the page's socket brought while traced. */
  received: { changesPerSecond: number; kibPerSecond: number };
  perUpdateMs: {
    scriptP50: number;
    scriptP95: number;
    scriptMax: number;
    styleLayoutP95: number;
    taskP95: number;
    samples: number;
    /** Updates the server published during the sample, and the sample's script over them. */
    published: number;
    scriptMeanPerPublished: number;
  };
  /** Main-thread tasks over 50 ms during the sample (PerformanceObserver 'longtask'). */
  longTasks: { count: number; maxMs: number; totalMs: number };
  /**
   * Long tasks of a 10 s trace after the sample, split into our own work (script, style,
   * layout, GC) and the wait for SwiftShader's raster (see wallTrace.ts).
   */
  longTasksTraced: LongTaskSplit;
  /** Times the wall's connection left 'live' in the sample and the trace (a reconnection reloads all). */
  leftLive: number;
  /** Heap after the warm-up, after 5 minutes of updates (when the run is that long), at the end. */
  heapMb: {
    afterWarmUp: number;
    after5Min: number | null;
    atEnd: number;
    endVs5MinPct: number | null;
  };
  note: string;
}

const pct = (sorted: number[], p: number) =>
  Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 10) / 10;

export async function benchWall(
  minutes: number,
  layout: WallLayout | null = null,
): Promise<WallBenchResult> {
  const roost = await startConsoleServer();
  const houses = await addBenchFarms(roost, FARMS);
  console.log(`  ${FARMS} farms, ${houses.length} houses added`);

  const browser = await launchWallBrowser(['--js-flags=--expose-gc']);
  let load: WallLoad | null = null;
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    // A wall that never draws (twice in about ten kiosk runs, waiting for its map or for 'live')
    // says why in the bench's output.
    page.on('pageerror', (error) => console.log(`  page error: ${error.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') console.log(`  console error: ${m.text().slice(0, 300)}`);
    });
    // Long tasks from the first paint on; the sample reads those after its start.
    await page.addInitScript(`(() => {
      const tasks = (window.__benchLongTasks = []);
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
      // Each status batch as it comes in, marked for the trace: the updates a window of the trace
      // took in, to divide its script by (scriptPerUpdateWindows).
      const onmessage = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
      Object.defineProperty(WebSocket.prototype, 'onmessage', {
        ...onmessage,
        set(handle) {
          let statusNext = false;
          onmessage.set.call(this, handle && function (event) {
            const data = event.data;
            // A batch is a text frame ('451-["house:status",…') and then its houses, a binary
            // frame of ${STATUS_STRIDE} four-byte integers each (HouseStatusWire).
            if (typeof data === 'string') statusNext = data.startsWith('451-["house:status"');
            else if (statusNext && data instanceof ArrayBuffer) {
              statusNext = false;
              performance.mark('${STATUS_MARK}:' + data.byteLength / 4 / ${STATUS_STRIDE});
            }
            return handle.call(this, event);
          });
        },
      });
      // The wall's connection state as it shows it: a drop and reconnection (a fresh snapshot and
      // farm list, far more work than an update) explains an outlier.
      const states = (window.__benchLiveStates = []);
      new MutationObserver((records) => {
        for (const r of records)
          if (r.target.getAttribute) states.push([performance.now(), r.target.getAttribute('data-live-state')]);
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-live-state'] });
    })()`);
    // With a layout, a kiosk link of every farm showing only those panels: what panels cost is
    // the difference between two walls measured in turns (wallCompare.ts).
    await openBenchWall(page, roost.url, layout);

    const startedAt = Date.now();
    load = startWallLoad(roost, houses, { alarms: true });
    const until = (ms: number) => page.waitForTimeout(Math.max(0, startedAt + ms - Date.now()));

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

    await until(WARM_UP_MS);
    const profileFile = process.env.BENCH_WALL_PROFILE;
    if (profileFile) {
      await cdp.send('Profiler.enable');
      // Every 100 µs: an update's parts are a millisecond or two, too few samples at the default.
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      // BENCH_WALL_PROFILE_MS: longer, for parts too small to show in 10 s of samples.
      await page.waitForTimeout(Number(process.env.BENCH_WALL_PROFILE_MS ?? 10_000));
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify(profile));
    }
    // What the page allocates in 10 s, garbage included: the young generation's collections are
    // a large part of an update's script.
    const allocationFile = process.env.BENCH_WALL_ALLOCATIONS;
    if (allocationFile) {
      await cdp.send('HeapProfiler.enable');
      await cdp.send('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        // `old`: only what dies in the old generation, which the major collections mark.
        includeObjectsCollectedByMinorGC: process.env.BENCH_WALL_ALLOCATIONS_OF !== 'old',
      });
      await page.waitForTimeout(10_000);
      const { profile } = await cdp.send('HeapProfiler.stopSampling');
      writeFileSync(allocationFile, JSON.stringify(profile));
    }
    // What the heap holds: every major collection marks all of it.
    const snapshotFile = process.env.BENCH_WALL_SNAPSHOT;
    if (snapshotFile) {
      const chunks: string[] = [];
      const add = ({ chunk }: { chunk: string }) => chunks.push(chunk);
      cdp.on('HeapProfiler.addHeapSnapshotChunk', add);
      await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      cdp.off('HeapProfiler.addHeapSnapshotChunk', add);
      writeFileSync(snapshotFile, chunks.join(''));
    }
    const heapWarm = await heapMb();
    const metricsNow = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const of = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
      return {
        script: of('ScriptDuration'),
        style: of('RecalcStyleDuration') + of('LayoutDuration'),
        task: of('TaskDuration'),
      };
    };
    // One update a second: the main thread's time in each second is one update's cost.
    const perSecond = async (ms: number) => {
      const out = { script: [] as number[], style: [] as number[], task: [] as number[] };
      let before = await metricsNow();
      let beforeAt = Date.now();
      const end = beforeAt + ms;
      while (Date.now() < end) {
        await page.waitForTimeout(UPDATE_EVERY_MS);
        const now = await metricsNow();
        // A busy page answers late: a window of several seconds holds several updates.
        const updates = Math.max(1, (Date.now() - beforeAt) / UPDATE_EVERY_MS);
        out.script.push((now.script - before.script) / updates);
        out.style.push((now.style - before.style) / updates);
        out.task.push((now.task - before.task) / updates);
        before = now;
        beforeAt = Date.now();
      }
      for (const list of Object.values(out)) list.sort((a, b) => a - b);
      return out;
    };
    const sampleStart = await page.evaluate<number>('performance.now()');
    const ticksBefore = load.ticks();
    const scriptBefore = (await metricsNow()).script;
    const [sample, seconds] = await Promise.all([
      frames(FRAME_SAMPLE_MS).then((f) => f.sort((a, b) => a - b)),
      perSecond(FRAME_SAMPLE_MS),
    ]);
    // The server shares this process and a loaded machine: its timer may publish less than
    // once a second. The script of the whole sample over the updates really published.
    const published = load.ticks() - ticksBefore;
    const scriptPerPublished =
      Math.round((((await metricsNow()).script - scriptBefore) / Math.max(1, published)) * 10) / 10;
    const longTasks = await page.evaluate<Array<[number, number]>>(
      `window.__benchLongTasks.filter(([start]) => start >= ${sampleStart})`,
    );
    const perUpdateMs = {
      scriptP50: pct(seconds.script, 0.5),
      scriptP95: pct(seconds.script, 0.95),
      scriptMax: Math.round((seconds.script.at(-1) ?? 0) * 10) / 10,
      styleLayoutP95: pct(seconds.style, 0.95),
      taskP95: pct(seconds.task, 0.95),
      samples: seconds.script.length,
      published,
      scriptMeanPerPublished: scriptPerPublished,
    };
    const longTaskMs = longTasks.map(([, d]) => d);
    // After the sample, not during it: tracing costs the page time of its own.
    // What the page's socket brought meanwhile: house changes and bytes a second (a page that
    // cannot keep up gets less, and a status-only socket less by design).
    let changesReceived = 0;
    let bytesReceived = 0;
    let statusNext = false;
    const countFrame = ({ response }: { response: { opcode: number; payloadData: string } }) => {
      const data = response.payloadData;
      // A binary frame's payload comes base64-encoded: 4 characters for 3 bytes.
      const binary = response.opcode === 2;
      const bytes = binary
        ? Math.floor((data.length * 3) / 4) - (data.match(/=*$/)?.[0].length ?? 0)
        : data.length;
      bytesReceived += bytes;
      if (data.startsWith('42["house:updated"'))
        changesReceived += data.split('"houseId"').length - 1;
      // Packed: the frame after the batch's text holds STATUS_STRIDE four-byte integers a house.
      else if (binary && statusNext) changesReceived += bytes / 4 / STATUS_STRIDE;
      statusNext = !binary && data.startsWith('451-["house:status"');
    };
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketFrameReceived', countFrame);
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await page.waitForTimeout(TRACE_MS);
    const trace = await browser.stopTracing();
    cdp.off('Network.webSocketFrameReceived', countFrame);
    await cdp.send('Network.disable');
    const received = {
      changesPerSecond: Math.round(changesReceived / (TRACE_MS / 1000)),
      kibPerSecond: Math.round(bytesReceived / 1024 / (TRACE_MS / 1000)),
    };
    if (process.env.BENCH_WALL_TRACE) writeFileSync(process.env.BENCH_WALL_TRACE, trace);
    const leftLive = await page.evaluate<number>(
      `window.__benchLiveStates.filter(([at, state]) => at >= ${sampleStart} && state !== 'live').length`,
    );
    const traced = JSON.parse(trace.toString('utf8')) as Parameters<typeof splitLongTasks>[0];
    const split = splitLongTasks(traced);
    const spread = (values: number[]) => {
      const sorted = values.sort((a, b) => a - b);
      return {
        p50: pct(sorted, 0.5),
        p95: pct(sorted, 0.95),
        max: sorted.at(-1) ?? 0,
        windows: sorted.length,
      };
    };
    const scriptCpuMs = spread(scriptPerUpdateWindows(traced));
    const scriptCpuPerSecondMs = spread(perUpdateWindows(scriptCpuPerSecond(traced)));
    console.log(`  frames: p50 ${pct(sample, 0.5)} ms, p95 ${pct(sample, 0.95)} ms`);
    console.log(
      `  per update: script p50 ${perUpdateMs.scriptP50} / p95 ${perUpdateMs.scriptP95} ms, long tasks ${longTasks.length} (max ${Math.round(Math.max(0, ...longTaskMs))} ms)`,
    );
    console.log(
      `  ${published} updates published in ${FRAME_SAMPLE_MS / 1000} s: script ${scriptPerPublished} ms per published update (mean)`,
    );
    console.log(
      `  traced: the page's socket brought ${received.changesPerSecond} house changes (${received.kibPerSecond} KiB) a second`,
    );
    console.log(
      `  traced: script CPU per update p50 ${scriptCpuMs.p50} / p95 ${scriptCpuMs.p95} / max ${scriptCpuMs.max} ms (${scriptCpuMs.windows} windows of 3 s, by the changes taken in)`,
    );
    console.log(
      `  traced: script CPU per second p50 ${scriptCpuPerSecondMs.p50} / p95 ${scriptCpuPerSecondMs.p95} / max ${scriptCpuPerSecondMs.max} ms (${scriptCpuPerSecondMs.windows} windows of 3 s, by their length)`,
    );
    console.log(
      `  traced ${split.seconds} s: ${split.count} long tasks, ${split.ours} with over 50 ms of our own work (max ${split.maxOwnMs} ms), ${split.oursCpu} with over 50 ms of CPU (max ${split.maxOwnCpuMs} ms); the longest (${split.maxMs} ms) waited ${split.gpuWaitPct} % for the GPU process; the wall left 'live' ${leftLive} times`,
    );
    let heap5: number | null = null;
    if (minutes >= HEAP_BASE_MINUTES) {
      await until(HEAP_BASE_MINUTES * 60_000);
      heap5 = await heapMb();
      console.log(`  heap after ${HEAP_BASE_MINUTES} min: ${heap5} MB`);
    }
    await until(minutes * 60_000);
    const heapEnd = await heapMb();
    return {
      at: new Date().toISOString(),
      farms: FARMS,
      minutes,
      frameMs: {
        p50: pct(sample, 0.5),
        p95: pct(sample, 0.95),
        max: Math.round((sample.at(-1) ?? 0) * 10) / 10,
        frames: sample.length,
      },
      scriptCpuMs,
      scriptCpuPerSecondMs,
      received,
      perUpdateMs,
      longTasks: {
        count: longTasks.length,
        maxMs: Math.round(Math.max(0, ...longTaskMs)),
        totalMs: Math.round(longTaskMs.reduce((a, b) => a + b, 0)),
      },
      longTasksTraced: split,
      leftLive,
      heapMb: {
        afterWarmUp: heapWarm,
        after5Min: heap5,
        atEnd: heapEnd,
        endVs5MinPct: heap5 === null ? null : Math.round(((heapEnd - heap5) / heap5) * 1000) / 10,
      },
      note: 'headless Chromium on SwiftShader (software WebGL) on a shared, loaded 2-core machine: frame times are an upper bound',
    };
  } finally {
    load?.stop();
    await browser.close();
    await roost.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const layout = process.env.BENCH_WALL_LAYOUT;
  benchWall(Number(process.env.BENCH_WALL_MINUTES ?? 1), layout ? parseLayout(layout) : null).then(
    (result) => {
      console.log(JSON.stringify(result, null, 2));
      mkdirSync('bench/results', { recursive: true });
      writeFileSync('bench/results/wall.json', `${JSON.stringify(result, null, 2)}\n`);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
