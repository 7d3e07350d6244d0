import { z } from 'zod';

/**
 * A Roost backup (`npm run backup`, `POST /ops/backup`) is a plain tar, so `tar tf` lists it:
 * first this manifest (`BACKUP_MANIFEST`), then the embedded database as PGlite's own gzipped
 * dump (`BACKUP_DATABASE`, absent with PostgreSQL, which has its own tools), then every file
 * the server keeps in DATA_DIR beside its database, each under `BACKUP_FILES` + its path in
 * DATA_DIR. The restore reads the manifest before it writes anything.
 */
export const BACKUP_MANIFEST = 'roost-backup.json';
export const BACKUP_DATABASE = 'database.tar.gz';
export const BACKUP_FILES = 'files/';

/**
 * A path inside DATA_DIR as a backup names it: plain segments joined by `/`, never `..`, `.`,
 * an absolute path or a backslash, so a restore writes only inside its new DATA_DIR.
 */
export const backupPathSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/);

export const backupManifestSchema = z.object({
  format: z.literal('roost-backup'),
  version: z.literal(1),
  /** When the server was asked (its clock): everything committed before is in the copy. */
  requestedAt: z.iso.datetime({ offset: true }),
  /** `pglite`: the database is in the backup; `none`: it is PostgreSQL's, backed up apart. */
  database: z.enum(['pglite', 'none']),
  files: z.array(z.object({ path: backupPathSchema, size: z.number().int().nonnegative() })),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;
