import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchFoundation } from './foundation';
import { benchLatency, benchSoak, benchThroughput } from './ingest';
import { benchTrendQueries } from './trend';

/**
 * `npm run bench`: prints each figure beside the goal it is compared to and writes
 * bench/results/latest.json. Figures, never assertions. BENCH_ONLY=foundation,ingest,latency,
 * trend,soak picks parts; BENCH_SOAK_MINUTES (default 10) sets the memory soak.
 */
const only = new Set((process.env.BENCH_ONLY ?? 'foundation,ingest,latency,trend,soak').split(','));
const soakMinutes = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const rows: Array<[string, string, string]> = [];
const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };

function row(name: string, value: string, goal = ''): void {
  rows.push([name, value, goal]);
  console.log(`  ${name.padEnd(52)} ${value.padStart(22)}   ${goal}`);
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
    );
    row('warm start → /api/health', `${f.warmStartToHealthMs} ms`);
    row('server RSS after start', `${f.rssAfterStartMiB} MiB`);
    row('sign-in p50 / p95 (argon2id 19 MiB, t=2)', `${f.signInP50Ms} / ${f.signInP95Ms} ms`);
    row('GET /api/user/getCurrent p50 / p95', `${f.getCurrentP50Ms} / ${f.getCurrentP95Ms} ms`);
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
      row(`${kind}: sustained ingest`, `${t.readingsPerSecond}/s`, `goal ≥ ${goal}/s`);
      row(
        `${kind}: bare unnest insert, same rows (the limit)`,
        `${t.bareRowsPerSecond}/s`,
        `ratio ${t.ratioToBare}`,
      );
    }
  }
  if (only.has('latency')) {
    console.log('Publish → browser socket (monitor stream), PGlite');
    for (const [rate, goal] of [
      [1_000, 'goal p50 ≤ 5, p99 ≤ 50 ms'],
      [5_000, 'goal p99 ≤ 100 ms'],
    ] as const) {
      const l = await benchLatency(rate, 15);
      results[`latency_${rate}`] = l;
      row(
        `at ${rate}/s (achieved ${l.achievedPerSecond}/s, ${l.samples} samples) p50 / p99`,
        `${l.p50Ms} / ${l.p99Ms} ms`,
        goal,
      );
    }
  }
  if (only.has('trend')) {
    console.log('Trend and comparison reads (42 houses x 90 days of hourly rollups in the table)');
    for (const q of await benchTrendQueries()) {
      results[`${q.kind}: ${q.what}`] = q;
      const goal = q.what.startsWith('trend') ? 'goal p95 ≤ 50 ms' : 'goal < 150 ms';
      row(
        `${q.kind}: ${q.what} (${q.points} values) p50 / p95`,
        `${q.p50Ms} / ${q.p95Ms} ms`,
        goal,
      );
    }
  }
  if (only.has('soak')) {
    console.log(`Memory: ${soakMinutes} min at 2,000 readings/s, PGlite`);
    const s = await benchSoak(soakMinutes, 2_000);
    results.soak = s;
    row(
      'server RSS after warm-up (1 min) → end',
      `${s.afterWarmupMiB} → ${s.endMiB} MiB`,
      'no growth after warm-up',
    );
    row('RSS samples every 15 s', s.rssMiB.join(' '));
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
