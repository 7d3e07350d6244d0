import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const JOURNAL = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
  'meta',
  '_journal.json',
);

/**
 * How many migrations this code has and how many a PostgreSQL database has applied (drizzle's
 * own table; 0 before the first start). Read-only: `npm run doctor` asks before a start.
 */
export async function migrationState(
  client: pg.Client,
): Promise<{ known: number; applied: number }> {
  const known = (JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: unknown[] }).entries
    .length;
  const applied = await client
    .query<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations')
    .then(
      (r) => Number(r.rows[0]?.n ?? 0),
      // No table yet: a database no Roost has started on.
      () => 0,
    );
  return { known, applied };
}
