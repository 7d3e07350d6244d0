import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/open';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file of this run's migrated empty PGlite database (tests/setup/memoryDatabases.ts). */
    memoryDatabaseTemplate: string;
  }
}

/**
 * Global setup of both suites: a new `memory://` database with every migration applied, made
 * once per run the way the server makes one (server/db/open.ts) and saved as PGlite's data
 * directory (an uncompressed tar: it loads in half the time of the gzipped one). Each test
 * process then starts its `memory://` databases from it: a copy, so each is still its own.
 * Made anew on every run, so it can never be older than the migrations.
 */
export async function setup(project: TestProject): Promise<() => void> {
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
  return () => rmSync(dir, { recursive: true, force: true });
}
