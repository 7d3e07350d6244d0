import type { Database } from '../db/client';
import { rollExtraDays } from '../devices/extraStore';
import {
  DELETE_SLICE,
  DIRTY_PER_PASS,
  deleteOldRawSlice,
  rollDays,
  takeDirtyDays,
} from './rollup.sql';

/**
 * Brings the daily rollups of the hours marked dirty by ingestion up to date. Runs off the hot
 * path (a timer); a pass that took a full slice is followed by another, a partial one ends the
 * run (hours marked meanwhile wait for the next tick). Answers how many days it rolled up.
 */
export async function rollUp(database: Database, timeZone: string): Promise<number> {
  let total = 0;
  for (;;) {
    const { days, taken } = await database.transaction(async ({ query }) => {
      const marked = await takeDirtyDays(query, timeZone);
      if (marked.length > 0) {
        await rollDays(
          query,
          marked.map((d) => d.houseId),
          marked.map((d) => d.day),
          timeZone,
        );
        await rollExtraDays(
          query,
          marked.map((d) => d.houseId),
          marked.map((d) => d.day),
          timeZone,
        );
      }
      return { days: marked.length, taken: marked[0]?.taken ?? 0 };
    });
    total += days;
    if (taken < DIRTY_PER_PASS) return total;
  }
}

export async function deleteOldRaw(database: Database, retentionDays: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await deleteOldRawSlice(database, retentionDays);
    deleted += n;
    if (n < DELETE_SLICE) return deleted;
  }
}
