import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/** The one database type every module uses: PGlite and PostgreSQL look the same from here. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** A cheap round trip, for /api/health. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
