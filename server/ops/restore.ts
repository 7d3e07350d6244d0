import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { alarms } from '../db/alarmSchema';
import { users } from '../db/schema';
import { telemetryHourly } from '../db/telemetrySchema';
import { OpsError } from './backup';

export interface RestoreResult {
  dataDir: string;
  users: number;
  alarms: number;
  telemetryHours: number;
}

/**
 * Restores a backup written by `npm run backup` into a new DATA_DIR: PGlite unpacks the archive
 * into `<dataDir>/pgdata` and starts on it (replaying the write-ahead log up to the moment of
 * the backup), then a few counts show it is a Roost database. An existing, non-empty folder is
 * refused: restoring over a database, or beside a running server's lock file, would destroy it.
 */
export async function restoreBackup(from: string, dataDir: string): Promise<RestoreResult> {
  const archive = path.resolve(from);
  const target = path.resolve(dataDir);
  if (!existsSync(archive) || !statSync(archive).isFile())
    throw new OpsError(`${archive} is not a file.`);
  const bytes = readFileSync(archive);
  // gzip's magic number: anything else is not a backup (and PGlite's message would not say so).
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    throw new OpsError(`${archive} is not a Roost backup (not a gzipped archive).`);
  const existed = existsSync(target);
  if (existed && (!statSync(target).isDirectory() || readdirSync(target).length > 0))
    throw new OpsError(
      `${target} is not empty: restore into a new DATA_DIR (an empty or missing folder).`,
    );
  const pgdata = path.join(target, 'pgdata');
  mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  let db: PGlite | null = null;
  try {
    db = await PGlite.create(pgdata, { loadDataDir: new Blob([bytes]) });
    const restored = drizzle({ client: db });
    const result: RestoreResult = {
      dataDir: target,
      users: await restored.$count(users),
      alarms: await restored.$count(alarms),
      telemetryHours: await restored.$count(telemetryHourly),
    };
    await db.close();
    return result;
  } catch (error) {
    await db?.close().catch(() => undefined);
    // Leave nothing half-restored behind: the next try must find the folder as it was.
    rmSync(existed ? pgdata : target, { recursive: true, force: true });
    throw new OpsError(`${archive} could not be restored: ${(error as Error).message}`);
  }
}
