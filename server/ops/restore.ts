import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, openAsBlob, readdirSync, rmSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import {
  BACKUP_DATABASE,
  BACKUP_FILES,
  BACKUP_MANIFEST,
  backupManifestSchema,
  type BackupManifest,
} from '../../src/contract/backup';
import { alarms } from '../db/alarmSchema';
import { users } from '../db/schema';
import { telemetryHourly } from '../db/telemetrySchema';
import { isStoredUpgradeName, UPGRADES_FOLDER } from '../upgrade/files';
import { OpsError } from './backup';
import { readTarEntries, type TarEntry } from './tar';

export interface RestoreResult {
  dataDir: string;
  /** The database's counts; null when the backup holds no database (PostgreSQL's server). */
  database: { users: number; alarms: number; telemetryHours: number } | null;
  /** The files of DATA_DIR brought back (upgrade files, camera key, demo gateways). */
  files: string[];
  /** A backup of an older Roost: its embedded database only, no files. */
  databaseOnly: boolean;
}

/** What an archive holds, checked whole before anything is written. */
interface Plan {
  database: { offset: number; size: number } | null;
  files: Array<{ path: string; offset: number; size: number }>;
  databaseOnly: boolean;
}

const COPY_CHUNK = 256 * 1024;

/**
 * Restores a backup written by `npm run backup` into a new DATA_DIR: the files the server kept
 * beside its database go back to their places, and PGlite unpacks the database's dump into
 * `<dataDir>/pgdata` and starts on it (replaying the write-ahead log up to the moment of the
 * backup), then a few counts show it is a Roost database. A gzipped archive is a backup of an
 * older Roost (the database alone) and is restored as such. An existing, non-empty folder is
 * refused: restoring over a database, or beside a running server's lock file, would destroy it.
 */
export async function restoreBackup(from: string, dataDir: string): Promise<RestoreResult> {
  const archive = path.resolve(from);
  const target = path.resolve(dataDir);
  if (!existsSync(archive) || !statSync(archive).isFile())
    throw new OpsError(`${archive} is not a file.`);
  const handle = await open(archive, 'r');
  let plan: Plan;
  try {
    plan = await planOf(handle, archive);
  } finally {
    await handle.close();
  }
  const existed = existsSync(target);
  if (existed && (!statSync(target).isDirectory() || readdirSync(target).length > 0))
    throw new OpsError(
      `${target} is not empty: restore into a new DATA_DIR (an empty or missing folder).`,
    );
  mkdirSync(target, { recursive: true, mode: 0o700 });
  let db: PGlite | null = null;
  try {
    for (const file of plan.files) await copyOut(archive, file, target);
    let database: RestoreResult['database'] = null;
    if (plan.database) {
      const pgdata = path.join(target, 'pgdata');
      mkdirSync(pgdata, { recursive: true, mode: 0o700 });
      // Read from the file when PGlite asks, not first copied whole into this process.
      const { offset, size } = plan.database;
      const dump = (await openAsBlob(archive)).slice(offset, offset + size, 'application/gzip');
      db = await PGlite.create(pgdata, { loadDataDir: dump });
      const restored = drizzle({ client: db });
      database = {
        users: await restored.$count(users),
        alarms: await restored.$count(alarms),
        telemetryHours: await restored.$count(telemetryHourly),
      };
      await db.close();
    }
    return {
      dataDir: target,
      database,
      files: plan.files.map((f) => f.path),
      databaseOnly: plan.databaseOnly,
    };
  } catch (error) {
    await db?.close().catch(() => undefined);
    // Leave nothing half-restored behind: the next try must find the folder as it was.
    if (existed)
      for (const name of readdirSync(target))
        rmSync(path.join(target, name), { recursive: true, force: true });
    else rmSync(target, { recursive: true, force: true });
    throw new OpsError(`${archive} could not be restored: ${(error as Error).message}`);
  }
}

/** Reads the archive's table of contents and its manifest, and checks they agree. */
async function planOf(handle: FileHandle, archive: string): Promise<Plan> {
  const head = Buffer.alloc(2);
  await handle.read(head, 0, 2, 0);
  // gzip's magic number: a backup of an older Roost, PGlite's dump alone.
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const { size } = await handle.stat();
    return { database: { offset: 0, size }, files: [], databaseOnly: true };
  }
  const notBackup = (why: string) => new OpsError(`${archive} is not a Roost backup (${why}).`);
  let entries: TarEntry[];
  try {
    entries = await readTarEntries(handle);
  } catch (error) {
    throw notBackup((error as Error).message);
  }
  const [first] = entries;
  if (first?.name !== BACKUP_MANIFEST) throw notBackup(`no ${BACKUP_MANIFEST} at its start`);
  if (first.size > 16 * 1024 * 1024) throw notBackup(`${BACKUP_MANIFEST} is too large`);
  const text = Buffer.alloc(first.size);
  await handle.read(text, 0, first.size, first.offset);
  let manifest: BackupManifest;
  try {
    manifest = backupManifestSchema.parse(JSON.parse(text.toString('utf8')));
  } catch {
    throw notBackup(`${BACKUP_MANIFEST} is not one this version of Roost reads`);
  }
  const byName = new Map(entries.map((e) => [e.name, e]));
  const database = byName.get(BACKUP_DATABASE) ?? null;
  if (manifest.database === 'pglite' && !database) throw notBackup('its database is missing');
  const files = manifest.files.map((f) => {
    // The database's folder and the process's lock are never files of a backup.
    if (f.path === 'roost.lock' || f.path.split('/')[0] === 'pgdata')
      throw notBackup(`${f.path} cannot be restored as a file`);
    const entry = byName.get(`${BACKUP_FILES}${f.path}`);
    if (!entry || entry.size !== f.size) throw notBackup(`${f.path} is missing or cut short`);
    return { path: f.path, offset: entry.offset, size: entry.size };
  });
  return {
    database: manifest.database === 'pglite' ? database : null,
    files,
    databaseOnly: false,
  };
}

/**
 * Copies one file out of the archive to its place in DATA_DIR (mode 0600), chunk by chunk. An
 * upgrade file is named by its SHA-256: its bytes are checked against it, as a gateway would.
 */
async function copyOut(
  archive: string,
  file: { path: string; offset: number; size: number },
  target: string,
): Promise<void> {
  const destination = path.join(target, ...file.path.split('/'));
  mkdirSync(path.dirname(destination), { recursive: true, mode: 0o700 });
  const folder = path.posix.dirname(file.path);
  const name = path.posix.basename(file.path);
  const hash =
    folder === UPGRADES_FOLDER && isStoredUpgradeName(name) ? createHash('sha256') : null;
  const input = await open(archive, 'r');
  const output = await open(destination, 'wx', 0o600);
  try {
    const chunk = Buffer.alloc(COPY_CHUNK);
    for (let at = 0; at < file.size;) {
      const want = Math.min(COPY_CHUNK, file.size - at);
      const { bytesRead } = await input.read(chunk, 0, want, file.offset + at);
      if (bytesRead === 0) throw new Error(`${file.path} is cut short`);
      hash?.update(chunk.subarray(0, bytesRead));
      await output.write(chunk, 0, bytesRead);
      at += bytesRead;
    }
  } finally {
    await output.close();
    await input.close();
  }
  if (hash && hash.digest('hex') !== name)
    throw new Error(`${file.path} is damaged: its bytes do not match its SHA-256`);
}
