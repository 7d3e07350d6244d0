import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../server/db/client';
import { openDatabase, type DatabaseTarget } from '../../server/db/open';

export interface TestDatabaseTarget {
  name: string;
  /** Creates a database of this run's own and gives its target; drop() removes it. */
  create(): Promise<{ target: DatabaseTarget; drop(): Promise<void> }>;
}

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). */
export function testDatabaseTargets(): TestDatabaseTarget[] {
  const targets: TestDatabaseTarget[] = [
    {
      name: 'pglite',
      create: async () => ({
        target: { kind: 'pglite', dataDir: 'memory://' },
        drop: async () => undefined,
      }),
    },
  ];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    targets.push({
      name: 'postgres',
      async create() {
        const name = `roost_test_${process.pid}_${randomBytes(4).toString('hex')}`;
        await withAdmin(adminUrl, (c) => c.query(`create database ${name}`));
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        return {
          target: { kind: 'postgres', url: url.toString() },
          drop: () =>
            withAdmin(adminUrl, (c) =>
              c.query(`drop database if exists ${name} with (force)`),
            ).then(() => undefined),
        };
      },
    });
  }
  return targets;
}

/** A database of this run's own on `target`, open and migrated; close() also drops it. */
export async function openTestDatabase(
  target: TestDatabaseTarget,
): Promise<{ database: Database; close(): Promise<void> }> {
  const created = await target.create();
  const database = await openDatabase(created.target);
  return {
    database,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
