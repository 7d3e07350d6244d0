import type { Database } from '../db/client';
import { deleteOldRaw } from './rollup';
import { vacuumRaw } from './rollup.sql';

/**
 * Raw retention, then the space it freed made reusable. A delete leaves dead rows; PostgreSQL's
 * autovacuum reclaims them, but the embedded database has no autovacuum, so without this the
 * data directory grew by every day of readings it ever took. `VACUUM (ANALYZE)` (not FULL) takes
 * no lock that blocks inserts, and runs here, on the hourly maintenance timer, off the hot path.
 */
export async function runRetention(database: Database, retentionDays: number): Promise<number> {
  const deleted = await deleteOldRaw(database, retentionDays);
  if (deleted > 0 && database.kind === 'pglite') await vacuumRaw(database);
  return deleted;
}
