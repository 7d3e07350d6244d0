import { readFileSync } from 'node:fs';

/**
 * For tests only (nothing in the server calls startMemoryDatabasesFrom): every later
 * `memory://` database of this process starts as a copy of the file `template`, a data directory
 * of a new database with the migrations applied (an uncompressed tar, PGlite's dumpDataDir),
 * instead of running initdb and every migration again: about 2 s of a 2-core machine each, and
 * the tests open hundreds. Each database is still its own; the migrations still run on it and
 * apply what it lacks.
 *
 * A module of its own, with nothing to load: every test process names the template in its setup
 * (tests/setup/startFromTemplates.ts), and a test of a page or a store, which opens no database,
 * no longer loads open.ts (Drizzle, pg, the schema: seconds of each test file's start on CI).
 */
export function startMemoryDatabasesFrom(template: string | undefined): void {
  templateFile = template;
  templateBytes = undefined;
}

let templateFile: string | undefined;
let templateBytes: Uint8Array | undefined;

/** The template's bytes, read once when a `memory://` database is first opened; undefined without one. */
export function memoryDatabaseTemplate(): Uint8Array | undefined {
  if (templateFile === undefined) return undefined;
  templateBytes ??= readFileSync(templateFile);
  return templateBytes;
}
