import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../server/db/client';
import { openDatabase, type DatabaseTarget } from '../../server/db/open';
import { postgresDatabaseTemplate } from './postgresTemplate';

/** A database a test made, and how to remove it. */
export interface CreatedDatabase {
  target: DatabaseTarget;
  drop(): Promise<void>;
}

export interface TestDatabaseTarget {
  name: string;
  /** Creates an empty database of this run's own and gives its target; drop() removes it. */
  create(): Promise<CreatedDatabase>;
  /**
   * The same with the migrations already applied, when the run made a migrated template
   * (tests/setup/databaseTemplates.ts): for a test that opens the database at once, which
   * then applies only what the template lacks (nothing). On PostgreSQL a copy of the template
   * took 0.2 s where the migrations took 0.4–0.5 s; PGlite starts its `memory://` databases from
   * its own template anyway (startMemoryDatabasesFrom).
   */
  createMigrated(): Promise<CreatedDatabase>;
}

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). */
export function testDatabaseTargets(): TestDatabaseTarget[] {
  const memory = async (): Promise<CreatedDatabase> => ({
    target: { kind: 'pglite', dataDir: 'memory://' },
    drop: async () => undefined,
  });
  const targets: TestDatabaseTarget[] = [
    { name: 'pglite', create: memory, createMigrated: memory },
  ];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const createFrom = async (template: string | undefined): Promise<CreatedDatabase> => {
      const name = `roost_test_${process.pid}_${randomBytes(4).toString('hex')}`;
      await withAdmin(adminUrl, (c) =>
        c.query(`create database ${name}${template ? ` template ${template}` : ''}`),
      );
      return {
        target: { kind: 'postgres', url: databaseUrl(adminUrl, name) },
        drop: () =>
          withAdmin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`)).then(
            () => undefined,
          ),
      };
    };
    targets.push({
      name: 'postgres',
      create: () => createFrom(undefined),
      createMigrated: () => createFrom(postgresDatabaseTemplate()),
    });
  }
  return targets;
}

/** A database of this run's own on `target`, open and migrated; close() also drops it. */
export async function openTestDatabase(
  target: TestDatabaseTarget,
): Promise<{ database: Database; close(): Promise<void> }> {
  const created = await target.createMigrated();
  const database = await openDatabase(created.target);
  return {
    database,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}

/** The address of database `name` on the server `adminUrl` names. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` on a connection of its own to `url`, closed after. */
export async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
