import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { healthProbe } from '../db/hardenSchema';

/** A health check that hangs is no answer: past this the database counts as failing. */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * Writes one row, for real: `select 1` answered "ok" for 20 s of "No space left on device",
 * while every reading failed to store. Answers null when the write committed, else why not.
 */
export async function probeWrite(database: Database): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('the database did not answer within 3 s'), PROBE_TIMEOUT_MS);
  });
  const write = database.db
    .insert(healthProbe)
    .values({ id: 1, at: sql`now()` })
    .onConflictDoUpdate({ target: healthProbe.id, set: { at: sql`excluded.at` } })
    .then(
      () => null,
      (error: unknown) => `the database refuses writes: ${driverMessage(error)}`,
    );
  try {
    return await Promise.race([write, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The database's own words: Drizzle wraps a driver's error in one that quotes the statement,
 * and the reason (a full disk, a read-only database) is its cause's message.
 */
function driverMessage(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return (cause instanceof Error ? cause : (error as Error)).message;
}
