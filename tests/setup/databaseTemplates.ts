import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/open';
import { databaseUrl, withAdmin } from '../helpers/databases';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file of this run's migrated empty PGlite database (tests/setup/startFromTemplates.ts). */
    memoryDatabaseTemplate: string;
    /** This run's migrated empty PostgreSQL database, when TEST_DATABASE_URL names a server. */
    postgresDatabaseTemplate: string | undefined;
  }
}

/**
 * Global setup of both suites: an empty database with every migration applied, made once per
 * run the way the server makes one (server/db/open.ts), on each kind of database the tests use.
 * Tests start their databases from it instead of running every migration again: made anew on
 * every run, so it can never be older than the migrations.
 * - PGlite: a new `memory://` database saved as its data directory (an uncompressed tar: it
 *   loads in half the time of the gzipped one); each test process starts its `memory://`
 *   databases as a copy of it.
 * - PostgreSQL: a database of the run's own, which createMigrated() copies (CREATE DATABASE …
 *   TEMPLATE); nothing may stay connected to it, so it is closed before any test starts.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'roost-test-template-'));
  const file = path.join(dir, 'migrated.tar');
  const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
  try {
    // A consistent copy, taken after a checkpoint (server/db/pgliteWorker.mjs, dump).
    writeFileSync(file, gunzipSync(await database.dump!()));
  } finally {
    await database.close();
  }
  project.provide('memoryDatabaseTemplate', file);

  const adminUrl = process.env.TEST_DATABASE_URL;
  let postgresTemplate: string | undefined;
  if (adminUrl) {
    postgresTemplate = `roost_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    await withAdmin(adminUrl, (c) => c.query(`create database ${postgresTemplate}`));
    const url = databaseUrl(adminUrl, postgresTemplate);
    const migrated = await openDatabase({ kind: 'postgres', url });
    await migrated.close();
  }
  project.provide('postgresDatabaseTemplate', postgresTemplate);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (adminUrl && postgresTemplate)
      await withAdmin(adminUrl, (c) =>
        c.query(`drop database if exists ${postgresTemplate} with (force)`),
      );
  };
}
