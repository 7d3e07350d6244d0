import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { runRetention } from '../../server/ingest/retention';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';

/** A day of one gateway's readings, older than any retention: what the hourly job deletes. */
const ROWS_PER_CYCLE = 20_000;
const CYCLES = 4;

async function insertOldReadings(database: Database, cycle: number): Promise<void> {
  await database.query(
    `insert into telemetry (gateway_id, house_id, ts, temperature, humidity)
     select 1, 1, now() - interval '30 days' - make_interval(secs => g + $2::int * $1::int), 20, 60
     from generate_series(1, $1::int) g`,
    [ROWS_PER_CYCLE, cycle],
  );
}

const sizeOf = async (database: Database) =>
  Number(
    (await database.query<{ n: string }>(`select pg_relation_size('telemetry')::text as n`))[0]
      ?.n ?? 0,
  );

// The embedded database only: it has no autovacuum (PostgreSQL's reclaims the space itself).
const pglite = testDatabaseTargets().find((t) => t.name === 'pglite')!;

describe('raw retention on the embedded database', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    db = await openTestDatabase(pglite);
  }, 120_000);
  afterAll(() => db?.close());

  it('the readings table stops growing over retention cycles: deleted rows are reclaimed and their space reused', async () => {
    const sizes: number[] = [];
    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      await insertOldReadings(db.database, cycle);
      expect(await runRetention(db.database, 7)).toBe(ROWS_PER_CYCLE);
      sizes.push(await sizeOf(db.database));
    }
    const rows = await db.database.query<{ n: number }>(`select count(*)::int as n from telemetry`);
    expect(rows[0]?.n).toBe(0);
    // Without the vacuum every cycle adds a cycle's worth of pages (dead rows are never reused).
    expect(sizes.at(-1)).toBeLessThanOrEqual(sizes[0]!);
  });
});
