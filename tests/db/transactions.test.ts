import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { settings } from '../../server/db/schema';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';

/**
 * A transaction's contract on both databases, as the alarm engine, the device run times and
 * the demo's past rely on it. On the embedded database a transaction begins with its first
 * query, may commit with its `last` one, and runs queries sent together in the order sent
 * (pgliteWorker.mjs), so it holds the database's lock for fewer turns of the main thread.
 */
describe.each(testDatabaseTargets())('transactions on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
    await database.query('create table tx_probe (id int primary key, note text not null)');
  });
  afterAll(async () => close?.());

  const notes = async () =>
    (await database.query<{ note: string }>('select note from tx_probe order by id')).map(
      (r) => r.note,
    );

  it('runs queries sent together in the order they were sent, and commits them', async () => {
    // node-postgres warns (once a process) that pg 9 refuses a query sent while one runs.
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const seen = await database.transaction(async ({ query }) => {
      const [, , rows] = await Promise.all([
        query(`insert into tx_probe values (1, 'first')`),
        query(`update tx_probe set note = 'second' where id = 1`),
        query<{ note: string }>('select note from tx_probe where id = 1'),
      ]);
      return rows.map((r) => r.note);
    });
    expect(seen).toEqual(['second']);
    expect(await notes()).toEqual(['second']);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings.filter((w) => /already executing a query/.test(w))).toEqual([]);
  });

  it('commits with its last query, and refuses a query after it', async () => {
    await database.transaction(async ({ query }) => {
      await query(`insert into tx_probe values (2, 'two')`);
      await query(`insert into tx_probe values (3, 'three')`, [], { last: true });
      if (database.kind === 'pglite')
        await expect(query(`insert into tx_probe values (4, 'four')`)).rejects.toThrow(
          /already ended/,
        );
    });
    expect(await notes()).toEqual(['second', 'two', 'three']);
  });

  it('rolls back everything when its function throws, and frees the database', async () => {
    await expect(
      database.transaction(async ({ query }) => {
        await query(`insert into tx_probe values (5, 'five')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A failing first query: its transaction had begun with it and is rolled back too.
    await expect(
      database.transaction(async ({ query }) => {
        await query(`insert into tx_probe values (1, 'again')`);
      }),
    ).rejects.toThrow(/duplicate key|unique/);
    expect(await notes()).toEqual(['second', 'two', 'three']);
  });

  it('rolls back a failed last query, caught or not, and frees the database', async () => {
    await expect(
      database.transaction(async ({ query }) => {
        await query(`insert into tx_probe values (6, 'six')`);
        await query(`insert into tx_probe values (1, 'clash')`, [], { last: true });
      }),
    ).rejects.toThrow(/duplicate key|unique/);
    // Caught: the transaction is aborted, so ending it commits nothing, and nothing waits.
    await database
      .transaction(async ({ query }) => {
        await query(`insert into tx_probe values (7, 'seven')`);
        await query(`insert into tx_probe values (1, 'clash')`, [], { last: true }).catch(
          () => undefined,
        );
      })
      .catch(() => undefined);
    await database.query(`insert into tx_probe values (8, 'eight')`);
    expect(await notes()).toEqual(['second', 'two', 'three', 'eight']);
  });

  it('hands out Drizzle on the same connection: it sees the plain writes and rolls back with them', async () => {
    const key = 'tx_probe_drizzle';
    await expect(
      database.transaction(async ({ db, query }) => {
        await db.insert(settings).values({ key, value: 'one' });
        await query(`insert into tx_probe values (9, 'nine')`);
        const [row] = await db.select().from(settings).where(eq(settings.key, key));
        expect(row?.value).toBe('one');
        throw new Error('undo both');
      }),
    ).rejects.toThrow('undo both');
    expect(await database.db.select().from(settings).where(eq(settings.key, key))).toEqual([]);
    expect(await notes()).toEqual(['second', 'two', 'three', 'eight']);
    const kept = await database.transaction(async ({ db }) => {
      await db.insert(settings).values({ key, value: 'two' });
      return db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
    });
    expect(kept).toEqual([{ value: 'two' }]);
  });
});
