import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { testDatabaseTargets } from './databases';

/** The server's migrations folder. */
export const MIGRATIONS = fileURLToPath(new URL('../../server/db/migrations', import.meta.url));

/** A copy of the migrations folder that ends at `lastTag` (the caller removes it). */
export function migrationsUpTo(lastTag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'roost-migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** A new, empty database of a test target, migrated step by step by the test. */
export interface Migrating {
  migrateTo(folder: string): Promise<void>;
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function openMigrating(targetName: string): Promise<Migrating> {
  if (targetName === 'pglite') {
    const client = await PGlite.create('memory://');
    const db = drizzlePglite({ client });
    return {
      migrateTo: (folder) => migratePglite(db, { migrationsFolder: folder }),
      query: async <T>(text: string, params?: unknown[]) =>
        (await client.query(text, params)).rows as T[],
      close: () => client.close(),
    };
  }
  const target = testDatabaseTargets().find((t) => t.name === targetName)!;
  const created = await target.create();
  if (created.target.kind !== 'postgres') throw new Error('expected PostgreSQL');
  const client = new pg.Client({ connectionString: created.target.url });
  await client.connect();
  const db = drizzlePg({ client });
  return {
    migrateTo: (folder) => migratePg(db, { migrationsFolder: folder }),
    query: async <T>(text: string, params?: unknown[]) =>
      (await client.query(text, params)).rows as T[],
    close: async () => {
      await client.end();
      await created.drop();
    },
  };
}
