import type { FastifyBaseLogger } from 'fastify';
import { isNull } from 'drizzle-orm';
import { flocks } from '../db/schema';
import type { AppContext } from '../http/context';
import { localDay } from './records';
import { evaluateDailyWarnings } from './warnings';

/**
 * Metered water arrives all day, long after the day's record was saved: the early warnings of
 * every open flock are judged again this often, not only when someone saves a day.
 */
export const WARNING_TICK_MS = 10 * 60_000;

type Ctx = Pick<AppContext, 'database' | 'events' | 'config'>;

/** One pass over every house with an open flock, at `now` (the clock is the caller's). */
export async function checkEarlyWarnings(ctx: Ctx, now: Date) {
  const rows = await ctx.database.db
    .selectDistinct({ houseId: flocks.houseId })
    .from(flocks)
    .where(isNull(flocks.closedOn));
  return evaluateDailyWarnings(
    ctx,
    rows.map((r) => r.houseId),
    localDay(now, ctx.config.timeZone),
    now.getTime(),
  );
}

export interface WarningTick {
  /** One pass now, at the tick's clock (tests, and a caller that cannot wait). */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

/** The maintenance tick of the early warnings, off the request path; a failure is logged. */
export function startWarningTick(
  ctx: Ctx,
  options: { log: FastifyBaseLogger; now?: () => Date; everyMs?: number },
): WarningTick {
  const now = options.now ?? (() => new Date());
  let running: Promise<void> | null = null;
  const run = () => {
    // Never two passes at once: a slow pass must not pile up behind itself.
    running ??= checkEarlyWarnings(ctx, now())
      .then(() => undefined)
      .catch((error: unknown) =>
        options.log.error({ err: error, job: 'earlyWarnings' }, 'maintenance job failed'),
      )
      .finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void run(), options.everyMs ?? WARNING_TICK_MS);
  timer.unref();
  return {
    runNow: run,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
