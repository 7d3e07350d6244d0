import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchFoundation } from './foundation';

/**
 * `npm run bench`: prints each figure beside the goal it is compared to and writes
 * bench/results/latest.json. Figures, never assertions: see the closing notes for history.
 */
async function main(): Promise<void> {
  const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };
  console.log('Foundation: start-up and sign-in (server process on embedded defaults)');
  const f = await benchFoundation();
  results.foundation = f;
  const rows: Array<[string, string, string]> = [
    [
      'cold start (new DATA_DIR) → /api/health',
      `${f.coldStartToHealthMs} ms`,
      'goal: start line within 90 s of npm start',
    ],
    ['warm start → /api/health', `${f.warmStartToHealthMs} ms`, ''],
    ['server RSS after start', `${f.rssAfterStartMiB} MiB`, ''],
    [
      'sign-in (argon2id 19 MiB, t=2) p50 / p95',
      `${f.signInP50Ms} / ${f.signInP95Ms} ms`,
      'OWASP-minimum hash ≈ 13–19 ms',
    ],
    ['GET /api/user/getCurrent p50 / p95', `${f.getCurrentP50Ms} / ${f.getCurrentP95Ms} ms`, ''],
  ];
  for (const [name, value, goal] of rows)
    console.log(`  ${name.padEnd(46)} ${value.padStart(16)}   ${goal}`);

  const dir = path.resolve(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), path.join(dir, 'latest.json'))}`);
}

void main();
