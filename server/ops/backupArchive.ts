import { Readable } from 'node:stream';
import {
  BACKUP_DATABASE,
  BACKUP_FILES,
  BACKUP_MANIFEST,
  type BackupManifest,
} from '../../src/contract/backup';
import type { KeptFile } from './keptFiles';
import { TAR_END, tarEntryBytes, tarHeader, tarPadding } from './tar';

/** How much of a kept file is read at a time: the archive never holds a whole file in memory. */
const CHUNK = 256 * 1024;

/** A file's padding, none when it ends on a block (an empty chunk is no chunk to a stream). */
function* padding(size: number): Generator<Buffer> {
  const zeros = tarPadding(size);
  if (zeros.length > 0) yield zeros;
}

export interface BackupArchive {
  stream: Readable;
  /** Its length, known before the first byte: the answer's Content-Length. */
  bytes: number;
  /** Ends the stream, closes the files and calls `done`, once, whenever it is called again. */
  release: () => void;
}

/**
 * A backup as one tar stream (src/contract/backup.ts): the manifest, the database's dump
 * (already in memory: PGlite builds it whole) and the kept files, read from their open handles
 * chunk by chunk as the client takes them. The handles are closed, and `done` called, when the
 * stream closes or the caller releases it (its answer is sent or dropped), whichever is first.
 */
export function backupArchive(
  source: { dump: Uint8Array | null; files: KeptFile[]; requestedAt: Date },
  done: () => void,
): BackupArchive {
  const { dump, files, requestedAt } = source;
  const manifest: BackupManifest = {
    format: 'roost-backup',
    version: 1,
    requestedAt: requestedAt.toISOString(),
    database: dump ? 'pglite' : 'none',
    files: files.map((f) => ({ path: f.path, size: f.size })),
  };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const bytes =
    tarEntryBytes(manifestBytes.length) +
    (dump ? tarEntryBytes(dump.byteLength) : 0) +
    files.reduce((sum, f) => sum + tarEntryBytes(f.size), 0) +
    TAR_END.length;

  async function* parts(): AsyncGenerator<Buffer> {
    yield tarHeader(BACKUP_MANIFEST, manifestBytes.length, requestedAt);
    yield manifestBytes;
    yield* padding(manifestBytes.length);
    if (dump) {
      yield tarHeader(BACKUP_DATABASE, dump.byteLength, requestedAt);
      yield Buffer.from(dump.buffer, dump.byteOffset, dump.byteLength);
      yield* padding(dump.byteLength);
    }
    for (const file of files) {
      yield tarHeader(`${BACKUP_FILES}${file.path}`, file.size, file.modified);
      // Exactly the size the header promised: a file that shrank meanwhile fails the backup.
      for (let at = 0; at < file.size;) {
        const chunk = Buffer.alloc(Math.min(CHUNK, file.size - at));
        const { bytesRead } = await file.handle.read(chunk, 0, chunk.length, at);
        if (bytesRead === 0) throw new Error(`${file.path} changed while it was being copied`);
        at += bytesRead;
        yield chunk.subarray(0, bytesRead);
      }
      yield* padding(file.size);
    }
    yield TAR_END;
  }

  const stream = Readable.from(parts(), { objectMode: false });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    stream.destroy();
    void Promise.all(files.map((f) => f.handle.close().catch(() => undefined))).finally(done);
  };
  stream.once('close', release);
  return { stream, bytes, release };
}
