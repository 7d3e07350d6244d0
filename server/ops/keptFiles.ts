import { open, readdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_GATEWAYS_FILE } from '../demo/seed';
import { KEY_FILE } from '../devices/secrets';
import { isStoredUpgradeName, UPGRADES_FOLDER } from '../upgrade/files';

/**
 * What the server keeps in DATA_DIR, and what a backup does with each:
 *
 * | in DATA_DIR                  | written by            | in a backup                         |
 * | ---------------------------- | --------------------- | ----------------------------------- |
 * | `pgdata/`                    | the embedded database | as the database's consistent dump   |
 * | `upgrades/<sha256>`          | upgrade file uploads  | yes: a gateway sent one downloads it |
 * | `camera-secret.key`          | the first start       | yes: sealed camera passwords need it |
 * | `demo-gateways.json`         | the demo's seed       | yes: the demo's simulator reads it  |
 * | `upgrades/.upload-*`         | an upload under way   | no: not a file yet                  |
 * | `roost.lock`                 | the running process   | no: it belongs to that process      |
 *
 * Logos and every other upload live in the database. A new kind of file kept in DATA_DIR is
 * added here, or a restore loses it (tests/ops/backup.test.ts compares the folders whole).
 */
export interface KeptFile {
  /** Its path in DATA_DIR, `/`-separated. */
  path: string;
  handle: FileHandle;
  size: number;
  modified: Date;
}

/**
 * Opens every kept file: once open, a file removed meanwhile (an upgrade file deleted during
 * the backup) can still be read whole, and its size is fixed now for the archive's headers.
 * A file missing is left out. The caller closes the handles.
 */
export async function openKeptFiles(dataDir: string): Promise<KeptFile[]> {
  if (dataDir === 'memory://') return [];
  const upgrades = await readdir(path.join(dataDir, UPGRADES_FOLDER)).catch(() => []);
  const names = [
    KEY_FILE,
    DEMO_GATEWAYS_FILE,
    ...upgrades
      .filter(isStoredUpgradeName)
      .sort()
      .map((name) => `${UPGRADES_FOLDER}/${name}`),
  ];
  const files: KeptFile[] = [];
  try {
    for (const name of names) {
      const handle = await open(path.join(dataDir, name), 'r').catch(() => null);
      if (!handle) continue;
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        continue;
      }
      files.push({ path: name, handle, size: stat.size, modified: stat.mtime });
    }
  } catch (error) {
    await Promise.all(files.map((f) => f.handle.close()));
    throw error;
  }
  return files;
}
