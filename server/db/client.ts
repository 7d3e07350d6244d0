import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/** The one database type every module uses: PGlite and PostgreSQL look the same from here. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * `copyData`: the rows of a `copy … from '/dev/blob'` statement (binaryCopy.ts). Only the
 * embedded database takes them; PostgreSQL would need COPY FROM STDIN over its protocol.
 */
export interface QueryOptions {
  copyData?: Uint8Array;
  /**
   * In a transaction, its last statement: on the embedded database the commit goes with it,
   * without a message of its own (pgliteWorker.mjs); nothing may be queried after it, and what
   * follows in the transaction's function can no longer roll it back. PostgreSQL ignores it.
   */
  last?: boolean;
  /**
   * A name for the statement on PostgreSQL: each connection parses and plans it once, not on
   * every call. For a statement run all the time whose text never changes (WRITE_NEW_BATCH's
   * plan cost its backend about a tenth of the CPU it spent on a batch). Unique per text; the
   * embedded database ignores it.
   */
  prepare?: string;
}

export type Query = <T = Record<string, unknown>>(
  text: string,
  params?: unknown[],
  options?: QueryOptions,
) => Promise<T[]>;

/**
 * One transaction, on one connection: `db` is Drizzle, the way feature code reads and writes;
 * `query` is plain parameterised SQL, for the named hot statements only (`*.sql.ts`, see
 * ARCHITECTURE.md "One typed data path"). Both run in the same transaction.
 */
export interface Transaction {
  db: Db;
  query: Query;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Plain parameterised SQL: for the named hot statements only (`*.sql.ts`). */
  query: Query;
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * The embedded database only: a consistent copy of its data directory (a gzipped tar that
   * `npm run restore` opens). PostgreSQL is backed up with its own tools (README).
   */
  dump?: () => Promise<Uint8Array>;
  /** A cheap round trip, for /api/health. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
