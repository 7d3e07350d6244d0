import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { memoryDatabaseTemplate } from './memoryTemplate';
import { PgliteRemote } from './pgliteRemote';
import * as schema from './schema';
import type { Database, Db, Query, QueryOptions, Transaction } from './client';

const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any number: all Roost processes on one PostgreSQL database agree on it. */
const MIGRATION_LOCK_KEY = 7_262_001;

export type DatabaseTarget =
  { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

/**
 * Opens the database and applies every migration. PGlite keeps its files in
 * `<dataDir>/pgdata`, or in memory with `memory://` (tests).
 */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'pglite' ? openPglite(target.dataDir) : openPostgres(target.url);
}

async function openPglite(dataDir: string): Promise<Database> {
  let location = 'memory://';
  if (dataDir !== 'memory://') {
    // PGlite does not create the parent folders of its data directory (it fails with ENOENT instead).
    location = path.join(dataDir, 'pgdata');
    mkdirSync(location, { recursive: true });
  }
  // In its own thread: PGlite's WebAssembly would otherwise block the event loop on every write.
  const client = await PgliteRemote.open(
    location,
    MIGRATIONS_FOLDER,
    location === 'memory://' ? memoryDatabaseTemplate() : undefined,
  );
  const db = drizzlePglite({ client: client as never, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    query: async <T>(text: string, params?: unknown[], options?: QueryOptions) =>
      (await client.query<T>(text, params, options)).rows,
    transaction: (fn) =>
      client.transaction((tx) =>
        fn(
          transactionOf(
            async <T>(text: string, params?: unknown[], options?: QueryOptions) =>
              (await tx.query<T>(text, params, options)).rows,
            () => drizzlePglite({ client: tx as never, schema }) as unknown as Db,
          ),
        ),
      ),
    ping: () => ping(db),
    dump: () => client.dump(),
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    idleTimeoutMillis: 30_000,
    // A database that cannot be reached fails the request (and health) instead of hanging it.
    connectionTimeoutMillis: 5_000,
  });
  // An idle connection the server closed (a restart, a failover, a dropped database) is
  // reported here; the pool discards it and connects anew on the next query.
  pool.on('error', () => undefined);
  // The pool listens to a client only while it is idle: one checked out for a transaction
  // whose link drops mid-write emits 'error' with nobody listening, and node-postgres then
  // ends the process. A listener for the client's whole life keeps the process up; the
  // query under way fails, its batch stays unacknowledged and the gateway sends it again.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  // Fail at start, not on the first request, when the server cannot be reached.
  const lockClient = await pool.connect();
  try {
    // Several server processes may start at once: only one migrates at a time.
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg({ client: lockClient, schema }), {
      migrationsFolder: MIGRATIONS_FOLDER,
    });
  } finally {
    await lockClient
      .query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .catch(() => undefined);
    lockClient.release();
  }
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    query: async <T>(text: string, params?: unknown[], options?: QueryOptions) =>
      (await pool.query(statementOf(text, params, options))).rows as T[],
    async transaction(fn) {
      const client = await pool.connect();
      // Statements sent together (Promise.all) run one after the other, in the order sent, as
      // on the embedded database. node-postgres queued them itself but warns that it will
      // refuse a query while one is under way (pg 9): they wait for each other here instead.
      let previous: Promise<unknown> = Promise.resolve();
      try {
        await client.query('begin');
        const query: Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => {
          const run = previous.then(() => client.query(statementOf(text, params, options)));
          previous = run.catch(() => undefined);
          return run.then((r) => r.rows as T[]);
        };
        const result = await fn(
          transactionOf(query, () => drizzlePg({ client, schema }) as unknown as Db),
        );
        await previous;
        await client.query('commit');
        return result;
      } catch (error) {
        await previous;
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

/**
 * A transaction's two handles on its one connection. Drizzle's is made on first use: the hot
 * writers (a telemetry batch, a rollup) use plain SQL only and pay nothing for it.
 */
function transactionOf(query: Query, makeDb: () => Db): Transaction {
  let db: Db | undefined;
  return {
    query,
    get db() {
      return (db ??= makeDb());
    },
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/**
 * A statement as node-postgres takes it, named when `prepare` asks. PostgreSQL takes no
 * `copyData` here: callers check `kind` first; this says so if one did not.
 */
function statementOf(text: string, values: unknown[] | undefined, options?: QueryOptions) {
  if (options?.copyData) throw new Error('copyData is for the embedded database only');
  return { text, values, name: options?.prepare };
}
