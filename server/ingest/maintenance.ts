import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { IngestPipeline } from './pipeline';
import { deleteOldCommands, type CommandRetention } from '../envcontrol/retention';
import { runRetention } from './retention';
import { rollUp } from './rollup';
import { sweepSilentGateways, type SweepResult } from './status';

/** Rollups trail ingestion by at most this; trends of the current hour are this fresh. */
const ROLLUP_EVERY_MS = 5_000;
/**
 * The offline sweep runs when the next online house can be silent for 3 intervals (its answer),
 * at least a second apart: offline within 3 intervals + 1 s. It looks again at least this often,
 * for what a sweep cannot foresee in another process or the admin screens: a gateway coming
 * online or its interval shortened.
 */
const SWEEP_SOONEST_MS = 1_000;
const SWEEP_LATEST_MS = 5_000;
/** Retention (raw readings, commands, parameter changes, download links) is a slow, daily concern: hourly is plenty. */
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
  options: {
    timeZone: string;
    rawRetentionDays: number;
    commandRetention: CommandRetention;
    log: FastifyBaseLogger;
  },
): Maintenance {
  const running = new Set<Promise<unknown>>();
  let nextSweepMs = SWEEP_SOONEST_MS;
  let stopped = false;
  const jobs = {
    rollup: () => rollUp(database, options.timeZone),
    sweep: async () => {
      nextSweepMs = SWEEP_SOONEST_MS; // if this one fails
      const swept = await sweepSilentGateways(database, pipeline.hearingForSeconds());
      nextSweepMs = sweepDelayMs(swept);
      await pipeline.announceStatus(swept.states);
    },
    retention: async () => {
      await runRetention(database, options.rawRetentionDays);
      await deleteOldCommands(database, options.commandRetention);
    },
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
    setInterval(() => void run('retention'), RETENTION_EVERY_MS),
  ];
  for (const t of timers) t.unref();
  const sweepAgain = async () => {
    await run('sweep');
    if (!stopped) sweepTimer = setTimeout(() => void sweepAgain(), nextSweepMs).unref();
  };
  let sweepTimer = setTimeout(() => void sweepAgain(), SWEEP_SOONEST_MS).unref();
  return {
    async runNow() {
      await Promise.all([...running]);
      await run('sweep');
      await run('rollup');
    },
    async stop() {
      stopped = true;
      clearTimeout(sweepTimer);
      for (const t of timers) clearInterval(t);
      await Promise.all([...running]);
    },
  };
}

/** How long until the next sweep, from what the last one answered. */
export function sweepDelayMs(swept: Pick<SweepResult, 'dueInSeconds' | 'newcomerSeconds'>): number {
  let seconds = SWEEP_LATEST_MS / 1000;
  if (swept.dueInSeconds !== null) seconds = Math.min(seconds, swept.dueInSeconds);
  if (swept.newcomerSeconds !== null) seconds = Math.min(seconds, swept.newcomerSeconds);
  // A little past the due time: a house is silent only once strictly past it.
  return Math.max(SWEEP_SOONEST_MS, Math.ceil(seconds * 1000) + 20);
}
