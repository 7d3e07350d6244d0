import type { Database } from '../db/client';

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
  const write = database
    .query(
      `insert into health_probe (id, at) values (1, now())
       on conflict (id) do update set at = excluded.at`,
    )
    .then(
      () => null,
      (error: unknown) => `the database refuses writes: ${(error as Error).message}`,
    );
  try {
    return await Promise.race([write, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
