import { createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** A mistake or a failure the operator can act on: printed as one line, exit code 1. */
export class OpsError extends Error {}

export interface BackupResult {
  file: string;
  bytes: number;
  /** When the server was asked (its clock): everything committed before is in the file. */
  requestedAt: string;
  /** Whether the database is in it (embedded) or is PostgreSQL's, to back up with its tools. */
  database: 'pglite' | 'none';
}

/**
 * Asks the running server (`POST /ops/backup`) for a backup of everything it keeps (a consistent
 * copy of its embedded database and the files of its DATA_DIR) and writes it to `out`: first to
 * `out.partial`, renamed only once complete, so a file named `out` is always a whole backup. An
 * existing `out` is never overwritten.
 */
export async function requestBackup(options: {
  url: string;
  token: string;
  out: string;
}): Promise<BackupResult> {
  const out = path.resolve(options.out);
  if (existsSync(out)) throw new OpsError(`${out} already exists: choose another --out file.`);
  if (!existsSync(path.dirname(out)))
    throw new OpsError(`The folder ${path.dirname(out)} does not exist.`);
  const endpoint = new URL('/ops/backup', options.url);
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}` },
    });
  } catch (error) {
    // fetch says only "fetch failed"; the socket's code (ECONNREFUSED…) is in its cause.
    type Cause = { code?: string; errors?: Array<{ code?: string }> };
    const found = (error as { cause?: Cause }).cause;
    const cause =
      found?.code ??
      found?.errors?.[0]?.code ??
      (found as Error | undefined)?.message ??
      'no answer';
    throw new OpsError(
      `Cannot reach Roost at ${endpoint.origin} (${cause}): is it running? Set --url.`,
    );
  }
  if (!res.ok || !res.body) {
    const why: Record<number, string> = {
      401: 'the server refused the token: ROOST_BACKUP_TOKEN must be the one the server was started with',
      404: 'the server has no backup endpoint: start it with ROOST_BACKUP_TOKEN set',
    };
    const message =
      why[res.status] ?? ((await res.json().catch(() => null)) as { msg?: string } | null)?.msg;
    throw new OpsError(`Backup refused (HTTP ${res.status}): ${message ?? res.statusText}.`);
  }
  const partial = `${out}.partial`;
  try {
    await pipeline(
      Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
      createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
    );
    // The server announces the archive's length before its first byte: less is a cut copy.
    const announced = Number(res.headers.get('content-length') ?? Number.NaN);
    const written = statSync(partial).size;
    if (Number.isFinite(announced) && written !== announced)
      throw new Error(`the server sent ${written} of ${announced} bytes`);
    renameSync(partial, out);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new OpsError(`Writing ${out} failed: ${(error as Error).message}`);
  }
  return {
    file: out,
    bytes: statSync(out).size,
    requestedAt: res.headers.get('x-roost-backup-requested-at') ?? '',
    database: res.headers.get('x-roost-backup-database') === 'none' ? 'none' : 'pglite',
  };
}
