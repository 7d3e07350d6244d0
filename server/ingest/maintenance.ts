import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { IngestPipeline } from './pipeline';
import { runRetention } from './retention';
import { rollUp } from './rollup';
import { sweepSilentGateways } from './status';

/** Rollups trail ingestion by at most this; trends of the current hour are this fresh. */
const ROLLUP_EVERY_MS = 5_000;
/** Offline detection runs this often (a cheap conditional update): offline within 3 intervals + 1 s. */
const SWEEP_EVERY_MS = 1_000;
/** Raw retention is a slow, daily concern: hourly is plenty. */
const RETENTION_EVERY_MS = 60 * 60 * 1000;

export interface Maintenance {
  /** Runs every job once now (tests, shutdown). */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

/** Off the hot path: rollups, offline sweeps and raw retention, each on its own timer. */
export function startMaintenance(
  database: Database,
  pipeline: IngestPipeline,
  options: { timeZone: string; rawRetentionDays: number; log: FastifyBaseLogger },
): Maintenance {
  const running = new Set<Promise<unknown>>();
  const jobs = {
    rollup: () => rollUp(database, options.timeZone),
    sweep: async () =>
      pipeline.announceStatus(await sweepSilentGateways(database, pipeline.hearingForSeconds())),
    retention: () => runRetention(database, options.rawRetentionDays),
  };
  const busy = new Set<keyof typeof jobs>();
  const run = (name: keyof typeof jobs) => {
    // Never two of the same job at once: a slow rollup must not pile up behind itself.
    if (busy.has(name)) return Promise.resolve();
    busy.add(name);
    const job = jobs[name]()
      .catch((error: unknown) =>
        options.log.error({ err: error, job: name }, 'maintenance job failed'),
      )
      .finally(() => {
        busy.delete(name);
        running.delete(job);
      });
    running.add(job);
    return job;
  };
  const timers = [
    setInterval(() => void run('rollup'), ROLLUP_EVERY_MS),
    setInterval(() => void run('sweep'), SWEEP_EVERY_MS),
    setInterval(() => void run('retention'), RETENTION_EVERY_MS),
  ];
  for (const t of timers) t.unref();
  return {
    async runNow() {
      await Promise.all([...running]);
      await run('sweep');
      await run('rollup');
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      await Promise.all([...running]);
    },
  };
}
