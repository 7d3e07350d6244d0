import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { UPGRADE_FILE_MAX_BYTES, type UpgradeFile } from '../../src/contract/upgrade';

/** Why a received file was not stored: the route turns these into 4xx answers. */
export type UpgradeFileRefusal = 'tooLarge' | 'empty';

/** The folder of DATA_DIR the files are kept in, each named by its SHA-256. */
export const UPGRADES_FOLDER = 'upgrades';

/** Whether a name in that folder is a stored file (not a part-file still being received). */
export const isStoredUpgradeName = (name: string) => /^[0-9a-f]{64}$/.test(name);

/** A file being received is written under this prefix, and renamed when whole. */
const PART_FILE_PREFIX = '.upload-';

export type StoreResult =
  { ok: true; file: UpgradeFile } | { ok: false; reason: UpgradeFileRefusal };

/**
 * Upgrade files, kept under their SHA-256 so the same bytes are stored once and a gateway can
 * check what it downloaded. On disk (DATA_DIR/upgrades) the bytes are streamed to a temporary
 * file and renamed only when complete and within the limit, so a cut upload or an oversized
 * one never leaves a file a gateway could be sent. `memory://` (tests, demos) keeps them in
 * the process.
 */
export class UpgradeFileStore {
  private readonly memory = new Map<string, { meta: UpgradeFile; bytes: Buffer }>();
  private readonly dir: string | null;

  constructor(dataDir: string) {
    this.dir = dataDir === 'memory://' ? null : path.join(dataDir, UPGRADES_FOLDER);
  }

  /** Reads the stream to its end or to one byte past the limit, whichever comes first. */
  async store(
    chunks: AsyncIterable<Buffer>,
    meta: { version: string; fileName: string; typeKeys: number[] },
  ): Promise<StoreResult> {
    const hash = createHash('sha256');
    let size = 0;
    const held: Buffer[] = [];
    const tmp = this.dir ? path.join(this.dir, `${PART_FILE_PREFIX}${randomUUID()}`) : null;
    if (this.dir) await mkdir(this.dir, { recursive: true });
    const handle = tmp ? await open(tmp, 'wx') : null;
    try {
      for await (const chunk of chunks) {
        size += chunk.length;
        if (size > UPGRADE_FILE_MAX_BYTES) break;
        hash.update(chunk);
        if (handle) await handle.write(chunk);
        else held.push(chunk);
      }
    } catch (error) {
      // The body broke off (the client went away): its part-file is nobody's.
      await handle?.close();
      if (tmp) await rm(tmp, { force: true });
      throw error;
    }
    await handle?.close();
    if (size > UPGRADE_FILE_MAX_BYTES || size === 0) {
      if (tmp) await rm(tmp, { force: true });
      return { ok: false, reason: size === 0 ? 'empty' : 'tooLarge' };
    }
    const file: UpgradeFile = {
      sha256: hash.digest('hex'),
      version: meta.version,
      fileName: meta.fileName,
      size,
      typeKeys: meta.typeKeys,
      uploadedAt: new Date().toISOString(),
    };
    if (this.dir && tmp) {
      await rename(tmp, path.join(this.dir, file.sha256));
    } else {
      this.memory.set(file.sha256, { meta: file, bytes: Buffer.concat(held) });
    }
    return { ok: true, file };
  }

  /**
   * Removes part-files older than `olderThanMs`: what an upload left when the process died
   * mid-body (a cut connection removes its own). An upload in progress writes its part-file
   * every moment, so a part-file untouched this long is no one's. Answers how many went.
   */
  async sweepPartFiles(olderThanMs: number): Promise<number> {
    if (!this.dir) return 0;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      if (!name.startsWith(PART_FILE_PREFIX)) continue;
      const file = path.join(this.dir, name);
      const modified = await stat(file).then(
        (s) => s.mtimeMs,
        () => null,
      );
      if (modified === null || Date.now() - modified < olderThanMs) continue;
      await rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }

  /** Forgets a file's bytes (none stored is no error). */
  async remove(sha256: string): Promise<void> {
    if (!isStoredUpgradeName(sha256)) return;
    if (!this.dir) this.memory.delete(sha256);
    else await rm(path.join(this.dir, sha256), { force: true });
  }

  /** The bytes of a stored file, or null. */
  async bytes(sha256: string): Promise<Buffer | null> {
    if (!isStoredUpgradeName(sha256)) return null;
    if (!this.dir) return this.memory.get(sha256)?.bytes ?? null;
    return readFile(path.join(this.dir, sha256)).catch(() => null);
  }
}
