import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { openDatabase } from '../../server/db/open';
import { arrayLiteral } from '../../server/db/arrayLiteral';
import { organizations } from '../../server/db/schema';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';

/**
 * The database as every module sees it (server/db/open.ts): PGlite runs in a thread of its own,
 * PostgreSQL through a pool; both must behave alike for errors and transactions.
 */
describe.each(testDatabaseTargets())('the database on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
  });
  afterAll(() => close?.());

  it('reads the ingest array literals back exactly: numbers, nulls, instants and awkward text', async () => {
    const texts = ['{"a":"b,c"}', 'quote " and backslash \\', '{braces}', 'NULL', '', null];
    const instants = [new Date('2026-11-21T19:00:00.123Z'), null];
    const [row] = await database.query<{ n: number[]; t: Array<string | null>; d: unknown[] }>(
      'select $1::real[] as n, $2::text[] as t, $3::timestamptz[] as d',
      [arrayLiteral([1.5, -0.25, null, 1e-7]), arrayLiteral(texts), arrayLiteral(instants)],
    );
    expect(row!.n).toEqual([1.5, -0.25, null, 1e-7]);
    expect(row!.t).toEqual(texts);
    expect(row!.d.map((d) => (d === null ? null : new Date(d as string).getTime()))).toEqual([
      instants[0]!.getTime(),
      null,
    ]);
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
      database.transaction(async ({ query }) => {
        await query(`insert into organizations (name, code) values ('Gone', 'gone-1')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await database.transaction(({ query }) =>
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
