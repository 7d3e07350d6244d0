import { z } from 'zod';

/**
 * Gateway upgrade files. The product accepts an upgrade file of any name (no suffix is
 * required or refused) up to 5 MB; an empty file is refused. The bytes are the truth: the
 * server stores them under their SHA-256, and the version is what the administrator names.
 */
export const UPGRADE_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** A version as gateways report it: `1.4.2`, `v2.0.0-rc1`; letters, digits, `.`, `-`, `_`. */
export const upgradeVersionSchema = z
  .string()
  .trim()
  .min(1, 'upgrade.versionMissing')
  .max(32, 'upgrade.versionInvalid')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'upgrade.versionInvalid');

/** `?version=` of the upload (the body is the multipart file). */
export const upgradeUploadQuerySchema = z.object({ version: upgradeVersionSchema });

/** One stored upgrade file, as the console lists it. */
export const upgradeFileSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  version: z.string(),
  fileName: z.string(),
  size: z.number().int().positive(),
  uploadedAt: z.string(),
});
export type UpgradeFile = z.infer<typeof upgradeFileSchema>;
