import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchAlarms } from './alarms';
import { benchCommands } from './commands';
import { benchScale } from './scale';
import { benchDemoHistory } from './demoHistory';
import { benchEdge } from './edge';
import { benchFoundation } from './foundation';
import { benchFuzz } from './fuzz';
import { benchLatency, benchSoak, benchThroughput } from './ingest';
import { benchOverview } from './overview';
import { benchProduction } from './production';
import { benchReportFlood } from './reportFlood';
import { benchRuntime } from './runtime';
import { benchTrendQueries } from './trend';
import { benchTransfer } from './transfer';
import { benchWall } from './wall';
import { benchWallLatency } from './wallLatency';

/**
 * `npm run bench`: prints each figure beside the goal it is compared to and writes
 * bench/results/latest.json. Figures, never assertions. BENCH_ONLY=foundation,history,ingest,
 * latency,trend,alarms,soak picks parts; BENCH_HISTORY_RUNS (default 3) sets the runs of the
 * new demo's cold start; BENCH_SOAK_MINUTES (default 10) sets the memory soak. Three
 * parts run only when named, as they need `npm run build` and Chromium: `overview` (the
 * console's house grid with 5,000 houses), `transfer` (a first visit's bytes and a slow link)
 * and `wall` (the alarm wall, BENCH_WALL_MINUTES, default 30), and `wallLatency` (an alarm's
 * publish → the wall's list, night and ranking, BENCH_WALL_LATENCY_RAISES, default 10). `production` (the KPIs of 500
 * flocks over their whole lives), `commands` (remote configuration with 1,000 gateways
 * connected), `runtime` (the devices' run times counted from a batch) and `scale` (20,000 houses on PostgreSQL, BENCH_SCALE_HOUSES) run only when named too, and so does `fuzz` (BENCH_FUZZ_REQUESTS generated requests
 * to every /api route, default 100,000), and `reportFlood` (one gateway's hostile config/reports
 * against honest gateways' acknowledgements, BENCH_FLOOD_ROUNDS, default 6), and `edge` (Roost
 * Edge polling 50 Modbus devices, and its backfill of a day beside the server's ingest).
 */
const only = new Set(
  (process.env.BENCH_ONLY ?? 'foundation,history,ingest,latency,trend,alarms,soak').split(','),
);
const soakMinutes = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const wallMinutes = Number(process.env.BENCH_WALL_MINUTES ?? 30);
const rows: Array<[string, string, string, string]> = [];
const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };

/**
 * One figure: its value, its goal and how far it is from it. `ratio` is the value over its
 * limit: the limit measured in the same run where there is one (ingest over a bare insert of the
 * same rows), else the goal (≤ 1 meets a ceiling, ≥ 1 meets a floor).
 */
function row(name: string, value: string, goal = '', ratio = ''): void {
  rows.push([name, value, goal, ratio]);
  console.log(`  ${name.padEnd(52)} ${value.padStart(22)}   ${goal.padEnd(28)} ${ratio}`);
}

/** `value / limit` as the ratio column shows it, two decimals. */
function ratioOf(value: number, limit: number, of = 'goal'): string {
  return limit > 0 ? `${(Math.round((value / limit) * 100) / 100).toFixed(2)} of ${of}` : '';
}

async function main(): Promise<void> {
  if (only.has('foundation')) {
    console.log('Foundation: start-up and sign-in');
    const f = await benchFoundation();
    results.foundation = f;
    row(
      'cold start (new DATA_DIR) → /api/health',
      `${f.coldStartToHealthMs} ms`,
      'start line within 90 s',
      ratioOf(f.coldStartToHealthMs, 90_000),
    );
    row('warm start → /api/health', `${f.warmStartToHealthMs} ms`);
    row('server RSS after start', `${f.rssAfterStartMiB} MiB`);
    row('sign-in p50 / p95 (argon2id 19 MiB, t=2)', `${f.signInP50Ms} / ${f.signInP95Ms} ms`);
    row('GET /api/user/getCurrent p50 / p95', `${f.getCurrentP50Ms} / ${f.getCurrentP95Ms} ms`);
  }
  if (only.has('production')) {
    console.log('Daily Business: KPIs of 500 flocks over their whole lives');
    const figures = await benchProduction();
    results.production = figures;
    for (const f of figures)
      row(
        `${f.kind}: KPIs of ${f.flocks} flocks (${f.records} days) p50 / p95`,
        `${f.p50Ms} / ${f.p95Ms} ms`,
      );
  }
  if (only.has('runtime')) {
    console.log("Devices' run times counted from a stored batch of 2,000 readings");
    const figures = await benchRuntime();
    results.runtime = figures;
    for (const f of figures)
      row(
        `${f.database}: ${f.houses} houses of ${f.ports} ports, a batch: median / CPU`,
        `${f.medianMs} / ${f.cpuMs} ms`,
      );
  }
  if (only.has('history')) {
    console.log('A new demo with its past (91 days of rollups, 48 h raw, alarms)');
    const h = await benchDemoHistory(Number(process.env.BENCH_HISTORY_RUNS ?? 3));
    results.demoHistory = h;
    row(
      'cold start of a new demo (history included) → ready',
      `${h.medianS} s (max ${h.maxS} s)`,
      'goal ≤ 30 s',
      ratioOf(h.maxS, 30),
    );
    row('  runs', h.runsS.map((s) => `${s} s`).join(', '));
  }
  if (only.has('ingest')) {
    console.log('Ingest: 42 gateways, QoS 1, 30 values a reading, all stored');
    for (const kind of ['pglite', 'postgres'] as const) {
      const t = await benchThroughput(kind, 20);
      results[`ingest_${kind}`] = t;
      if (!t) {
        row(`${kind}: sustained ingest`, 'not run', 'TEST_DATABASE_URL unset');
        continue;
      }
      const goal = kind === 'pglite' ? 5_000 : 10_000;
      row(
        `${kind}: sustained ingest`,
        `${t.readingsPerSecond}/s`,
        `goal ≥ ${goal}/s and ≥ 0.5 of bare`,
        `${ratioOf(t.readingsPerSecond, t.bareRowsPerSecond, 'bare')}, ${ratioOf(t.readingsPerSecond, goal)}`,
      );
      row(
        `${kind}: bare unnest insert, same rows, same time (the limit)`,
        `${t.bareRowsPerSecond}/s`,
      );
      row(
        `${kind}: bare insert's first 100,000 rows alone`,
        `${t.bareFirstRowsPerSecond}/s`,
        '',
        ratioOf(t.readingsPerSecond, t.bareFirstRowsPerSecond, 'them'),
      );
      row(`${kind}: server CPU per stored reading`, `${t.serverCpuUsPerReading} µs`);
      row(`${kind}: cores busy`, t.cores);
    }
  }
  if (only.has('latency')) {
    console.log('Publish → browser socket (monitor stream), PGlite');
    for (const [rate, goal, p99Goal] of [
      [1_000, 'goal p50 ≤ 5, p99 ≤ 50 ms', 50],
      [5_000, 'goal p99 ≤ 100 ms', 100],
    ] as const) {
      const l = await benchLatency(rate, 15);
      results[`latency_${rate}`] = l;
      row(
        `at ${rate}/s (achieved ${l.achievedPerSecond}/s, ${l.samples} samples) p50 / p99`,
        `${l.p50Ms} / ${l.p99Ms} ms`,
        goal,
        `p99 ${ratioOf(l.p99Ms, p99Goal)}`,
      );
    }
  }
  if (only.has('trend')) {
    console.log('Trend and comparison reads (42 houses x 90 days of hourly rollups in the table)');
    for (const q of await benchTrendQueries()) {
      results[`${q.kind}: ${q.what}`] = q;
      const trend = q.what.startsWith('trend');
      row(
        `${q.kind}: ${q.what} (${q.points} values) p50 / p95`,
        `${q.p50Ms} / ${q.p95Ms} ms`,
        trend ? 'goal p95 ≤ 50 ms' : 'goal < 150 ms',
        `p95 ${ratioOf(q.p95Ms, trend ? 50 : 150)}`,
      );
    }
  }
  if (only.has('commands')) {
    console.log('Remote configuration through the embedded broker');
    const c = await benchCommands();
    results.commands = c;
    row(
      `command round trip p50 / p99 (${c.gateways} gateways connected)`,
      `${c.roundTripMs.p50} / ${c.roundTripMs.p99} ms`,
    );
    row(`one change to ${c.fanOut.houses} houses: all applied`, `${c.fanOut.allAppliedMs} ms`);
  }
  if (only.has('scale')) {
    console.log('One node on PostgreSQL: every house reporting a full reading every 10 s');
    const sc = await benchScale();
    results.scale = sc;
    if (sc) {
      row(
        `${sc.houses} houses (${sc.broker} broker): stored / offered readings a second`,
        `${sc.storedPerSecond} / ${sc.offeredPerSecond}`,
        'keep up (1.00)',
        `${sc.keptUp.toFixed(2)} of offered`,
      );
      row('  still storing after the load stopped', `${sc.drainSeconds} s`);
      row(
        `  PUBACK (${sc.broker === 'embedded' ? 'after commit' : "the broker's"}) p50 / p99`,
        `${sc.pubackP50Ms} / ${sc.pubackP99Ms} ms`,
      );
      row(
        '  reading over a limit → that alarm on the socket p50 / p99',
        sc.socketDropped
          ? `socket dropped (${sc.socketDropped})`
          : `${sc.alarmP50Ms} / ${sc.alarmP99Ms} ms (${sc.alarmTimeouts} of ${sc.alarmSamples} not heard in 30 s)`,
      );
      row(
        '  GET overview / wall map / wall houses p50',
        `${sc.overviewP50Ms} / ${sc.wallMapP50Ms} / ${sc.wallHousesP50Ms} ms`,
      );
      row(
        '  server RSS; load average start → end',
        `${sc.serverRssMiB} MiB; ${sc.loadAverage.join(' → ')}`,
      );
    } else row('scale', 'needs TEST_DATABASE_URL (PostgreSQL)');
  }
  if (only.has('fuzz')) {
    // Only when named: the long run of the CI fuzz, ~100,000 requests.
    const total = Number(process.env.BENCH_FUZZ_REQUESTS ?? 100_000);
    console.log(`Fuzz of every /api route: ${total} generated requests`);
    results.fuzz = await benchFuzz(total);
    for (const f of results.fuzz as Awaited<ReturnType<typeof benchFuzz>>)
      row(
        `${f.database}: answers ≥ 500 of ${f.requests} (${f.routes} routes)`,
        `${f.serverErrors} (${f.requestsPerSecond} req/s)`,
        'goal 0',
        `${f.serverErrors} over`,
      );
  }
  if (only.has('edge')) {
    console.log('Roost Edge: 50 Modbus devices of 40 registers every 5 s, and a day of backfill');
    const e = await benchEdge();
    results.edge = e;
    row('edge CPU (share of one core)', `${e.cpuShareOfOneCore}`);
    row('edge RSS', `${e.rssMiB} MiB`);
    row('Modbus round trip p50 / p99', `${e.roundTripP50Ms} / ${e.roundTripP99Ms} ms`);
    row(
      `backfill of ${e.backfillReadings} readings`,
      `${e.backfillPerSecond} /s`,
      'the server’s ingest rate',
      ratioOf(e.backfillPerSecond, e.ingestPerSecond, `ingest ${e.ingestPerSecond} /s`),
    );
  }
  if (only.has('reportFlood')) {
    console.log("A gateway's config/report flood (20 × 200 KB at once) against 8 honest gateways");
    const figures = await benchReportFlood(Number(process.env.BENCH_FLOOD_ROUNDS ?? 6));
    results.reportFlood = figures;
    for (const f of figures)
      row(
        `${f.database}: PUBACK p99 calm → under the flood`,
        `${f.baselineP99Ms} → ${f.attackP99Ms} ms`,
        'moved < 100 ms',
        ratioOf(f.attackP99Ms - f.baselineP99Ms, 100),
      );
  }
  if (only.has('overview')) {
    console.log('House overview in Chromium, 1,000 house updates a second (BENCH_OVERVIEW_HOUSES)');
    const o = await benchOverview();
    results.overview = o;
    // 1.5 s was the goal at 5,000 houses; at 20,000 (one node's size) it is 2 s.
    const firstRenderGoal = o.houses <= 5_000 ? 1_500 : 2_000;
    row(
      `first render, ${o.houses} houses, ${o.database} (median of ${o.firstRenderMs.runs.length})`,
      `${o.firstRenderMs.median} ms`,
      `goal < ${firstRenderGoal} ms`,
      ratioOf(o.firstRenderMs.median, firstRenderGoal),
    );
    row(
      '  the houses answer: on the wire / as JSON',
      `${Math.round(o.answerBytes.onWire / 1024)} / ${Math.round(o.answerBytes.json / 1024)} KiB`,
    );
    for (const [name, f] of [
      ['by farm', o.sortedByFarm],
      ['by status', o.sortedByStatus],
    ] as const) {
      // A frame comes every 16.7 ms at 60 Hz, a dropped one makes a 33.3 ms gap: the goal is no
      // drop at p95 (the "keep": 16.7–16.8 ms). "< 16.7 ms" failed on 0.1 ms of timer
      // jitter with every frame on time; the ratio is in frames.
      row(
        `frame p50 / p95 / p99 while updating, sorted ${name}`,
        `${f.p50} / ${f.p95} / ${f.p99} ms`,
        'goal p95 < 1.5 frames',
        `p95 ${ratioOf(f.p95, 1000 / 60, 'a frame')}`,
      );
      row(
        `  deltas received/s, long tasks, load avg`,
        `${f.deltasReceivedPerSecond}/s, ${f.longTasks} (${f.longTaskMs} ms), ${f.loadAverage.join('→')}`,
      );
    }
  }
  if (only.has('alarms')) {
    console.log('Alarms: rule cost and publish → badge count, PGlite');
    const a = await benchAlarms();
    results.alarms = a;
    row('alarm evaluation per reading (16 metrics, 4 devices)', `${a.evaluationUsPerReading} µs`);
    row(
      'MQTT publish → socket alarm:count p50 / p99',
      `${a.publishToCountP50Ms} / ${a.publishToCountP99Ms} ms`,
      'badge within 2 s',
      `p99 ${ratioOf(a.publishToCountP99Ms, 2_000)}`,
    );
  }
  if (only.has('soak')) {
    console.log(`Memory: ${soakMinutes} min at 2,000 readings/s, PGlite`);
    const s = await benchSoak(soakMinutes, 2_000);
    results.soak = s;
    row(
      `server RSS after ${s.warmUpMinutes} min warm-up: median 1st half → 2nd half`,
      `${s.firstHalfMedianMiB} → ${s.lastHalfMedianMiB} MiB`,
      'no growth after warm-up',
    );
    row('RSS trend after warm-up (least squares)', `${s.trendMiBPerMinute} MiB/min`);
    row('readings stored per second (asked 2,000)', `${s.achievedPerSecond}/s`);
    row('RSS samples every 15 s', s.rssMiB.join(' '));
  }
  if (only.has('transfer')) {
    console.log('First visit on the wire (built console, compressed as the browser accepts)');
    const t = await benchTransfer();
    results.transfer = t;
    for (const p of t.pages)
      row(
        `cold ${p.page}: JS / CSS / other (${p.requests} requests)`,
        `${p.scriptKiB} / ${p.styleKiB} / ${p.otherKiB} KiB`,
        'goal JS ≤ 300 KiB',
        `JS ${ratioOf(p.scriptKiB, 300)}`,
      );
    row('slow 4G, CPU ×4: overview → first house card', `${t.slowLinkFirstCardMs} ms`);
  }
  if (only.has('wall')) {
    console.log(`Wall screen: 10,000 farm points updating every second, ${wallMinutes} min`);
    const w = await benchWall(wallMinutes);
    results.wall = w;
    row(
      'script per update p50 / p95, CPU time (trace)',
      `${w.scriptCpuMs.p50} / ${w.scriptCpuMs.p95} ms`,
      'goal p95 ≤ 8 ms',
      `p95 ${ratioOf(w.scriptCpuMs.p95, 8)}`,
    );
    // Wall time: on a loaded machine it also counts the seconds the page waited for a core.
    row(
      'script per update p50 / p95 (Performance metrics)',
      `${w.perUpdateMs.scriptP50} / ${w.perUpdateMs.scriptP95} ms`,
    );
    row(
      'main-thread tasks over 50 ms: count / longest',
      `${w.longTasks.count} / ${w.longTasks.maxMs} ms`,
      'goal none over 50 ms',
      `longest ${ratioOf(w.longTasks.maxMs, 50)}`,
    );
    // The same tasks from a trace, less what they waited for: SwiftShader's readback, and on
    // this loaded machine the time the thread had no core (CPU time).
    const traced = w.longTasksTraced;
    row(
      'traced tasks over 50 ms: all / own work / own CPU (longest CPU)',
      `${traced.count} / ${traced.ours} / ${traced.oursCpu} (${traced.maxOwnCpuMs} ms)`,
      'goal none of our own',
      `longest own CPU ${ratioOf(traced.maxOwnCpuMs, 50)}`,
    );
    row('style + layout per update p95', `${w.perUpdateMs.styleLayoutP95} ms`);
    row(
      'frame time p50 / p95 (SwiftShader raster included)',
      `${w.frameMs.p50} / ${w.frameMs.p95} ms`,
      '16.7 ms',
      `p95 ${ratioOf(w.frameMs.p95, 16.7)}`,
    );
    row(
      'JS heap after warm-up / 5 min / end',
      `${w.heapMb.afterWarmUp} / ${w.heapMb.after5Min ?? '–'} / ${w.heapMb.atEnd} MB`,
      'end within 10 % of 5 min',
      w.heapMb.endVs5MinPct === null ? '' : `${w.heapMb.endVs5MinPct} % of 10 %`,
    );
  }
  if (only.has('wallLatency')) {
    console.log('Wall screen: an alarm raised over MQTT → on the list, the night and the ranking');
    const l = await benchWallLatency();
    results.wallLatency = l;
    const names = {
      list: 'list',
      nightTotal: 'night total',
      nightChart: 'night chart',
      ranking: 'ranking',
    };
    for (const [panel, name] of Object.entries(names) as Array<[keyof typeof names, string]>) {
      const f = l.paintMs[panel];
      row(
        `publish → painted on the ${name} p50 / p95 / max`,
        `${f.p50} / ${f.p95} / ${f.max} ms`,
        'within 2 s',
        `p95 ${ratioOf(f.p95, 2_000)}`,
      );
    }
    row(
      `publish → all four painted (${l.raises} raises, ${l.extraFarms} extra farms)`,
      `${l.allPaintedMs.p50} / ${l.allPaintedMs.p95} / ${l.allPaintedMs.max} ms`,
      'within 2 s',
      `max ${ratioOf(l.allPaintedMs.max, 2_000)}`,
    );
    row('  raises not on every panel within 30 s', `${l.misses}`, 'goal 0', `${l.misses} over`);
  }
  const dir = path.resolve(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'latest.json'),
    `${JSON.stringify({ ...results, rows }, null, 2)}\n`,
  );
  console.log(`\nwritten to ${path.relative(process.cwd(), path.join(dir, 'latest.json'))}`);
}

void main();
