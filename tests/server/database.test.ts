import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { openDatabase } from '../../server/db/open';
import { organizations } from '../../server/db/schema';
import { testDatabaseTargets } from '../helpers/databases';

/**
 * The database as every module sees it (server/db/open.ts): PGlite runs in a thread of its own,
 * PostgreSQL through a pool; both must behave alike for errors and transactions.
 */
describe.each(testDatabaseTargets())('the database on $name', (target) => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const created = await target.create();
    drop = created.drop;
    database = await openDatabase(created.target);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('reports a unique violation with its PostgreSQL code, and keeps working after it', async () => {
    const org = { name: 'Twice', code: 'twice-1' };
    await database.db.insert(organizations).values(org).returning();
    const failure = await database.db
      .insert(organizations)
      .values(org)
      .returning()
      .then(
        () => null,
        (error: { cause?: { code?: string; constraint?: string } }) => error.cause,
      );
    expect(failure?.code).toBe('23505');
    const rows = await database.db
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.code, 'twice-1'));
    expect(rows).toEqual([{ name: 'Twice' }]);
  });

  it('rolls a transaction back when its work throws, and commits it otherwise', async () => {
    await expect(
      database.transaction(async (query) => {
        await query(`insert into organizations (name, code) values ('Gone', 'gone-1')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await database.transaction((query) =>
      query(`insert into organizations (name, code) values ('Kept', 'kept-1')`),
    );
    const rows = await database.query<{ code: string }>(
      `select code from organizations where code in ('gone-1', 'kept-1')`,
    );
    expect(rows.map((r) => r.code)).toEqual(['kept-1']);
  });
});

describe('PGlite in its own thread', () => {
  it('leaves the event loop free while the database works', async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 5);
    try {
      await database.query('select count(*) from generate_series(1, 1000000)');
    } finally {
      clearInterval(ticker);
      await database.close();
    }
    // On the main thread the WebAssembly call would hold the loop for the whole query.
    expect(ticks).toBeGreaterThan(0);
  });
});
