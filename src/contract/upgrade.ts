import { z } from 'zod';
import { isGatewayTypeKey } from './gatewayTypes';
import { UPGRADE_STAGES } from './gateway/upgrade';

/**
 * Gateway upgrade files. An upgrade file has no suffix (`IEC12_2_9_0`, not `gw.bin` or
 * `firmware.tar.gz`) and is at most 5 MB; an empty file is refused. The bytes are the truth:
 * the server stores them under their SHA-256, and the version is what the administrator names.
 */
export const UPGRADE_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** Whether a file name carries a suffix: any dot does (`gw.bin`, `fw.tar.gz`, `.hidden`). */
export function hasSuffix(fileName: string): boolean {
  return fileName.includes('.');
}

/** The name to rename a file to so that it has no suffix: `gw.bin` → `gw`. */
export function withoutSuffix(fileName: string): string {
  return fileName.split('.')[0] || fileName.replaceAll('.', '');
}

/**
 * The name an upgrade file is stored and sent under, as the upload gave it: 1 to 100
 * characters, no control character (a NUL cannot even be stored) and no path separator (the
 * gateway installs the file under this name). The no-suffix rule is checked after this.
 */
export const UPGRADE_FILE_NAME_MAX = 100;
export const upgradeFileNameSchema = z
  .string()
  .min(1, 'upgrade.fileNameInvalid')
  .max(UPGRADE_FILE_NAME_MAX, 'upgrade.fileNameInvalid')
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001F\u007F-\u009F/\\]+$/, 'upgrade.fileNameInvalid');

/** A version as gateways report it: `1.4.2`, `v2.0.0-rc1`; letters, digits, `.`, `-`, `_`. */
export const upgradeVersionSchema = z
  .string()
  .trim()
  .min(1, 'upgrade.versionMissing')
  .max(32, 'upgrade.versionInvalid')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'upgrade.versionInvalid');

/**
 * The gateway type keys a file is for (`typeKeys=25,26`): firmware of one model bricks another,
 * so every file names at least one type, and only gateways of those types are sent it.
 */
export const upgradeTypeKeysSchema = z
  .string({ error: 'upgrade.typeMissing' })
  .trim()
  .min(1, 'upgrade.typeMissing')
  .transform((text) => [...new Set(text.split(',').map((part) => Number(part.trim())))])
  .refine(
    (keys) =>
      keys.length <= 32 && keys.every((key) => Number.isInteger(key) && isGatewayTypeKey(key)),
    'upgrade.typeInvalid',
  );

/** `?version=&typeKeys=` of the upload (the body is the multipart file). */
export const upgradeUploadQuerySchema = z.object({
  version: upgradeVersionSchema,
  typeKeys: upgradeTypeKeysSchema,
});

/** What is wrong with an upload before it is sent: the key of the server's own refusal. */
export type UpgradeUploadProblem =
  | { key: 'fileSuffix'; name: string; bare: string }
  | {
      key:
        | 'fileNameInvalid'
        | 'fileEmpty'
        | 'fileTooLarge'
        | 'versionMissing'
        | 'versionInvalid'
        | 'typeMissing';
    };

/**
 * The upload's rules in the order the server applies them (query, then name, suffix, size), so
 * the console refuses at once, with the server's words, what the server would refuse after the
 * whole file had travelled: null when the server would store it.
 */
export function upgradeUploadProblem(
  file: { name: string; size: number },
  version: string,
  typeKeys: readonly number[],
): UpgradeUploadProblem | null {
  const v = upgradeVersionSchema.safeParse(version);
  if (!v.success)
    return {
      key:
        v.error.issues[0]?.message === 'upgrade.versionMissing'
          ? 'versionMissing'
          : 'versionInvalid',
    };
  if (typeKeys.length === 0) return { key: 'typeMissing' };
  if (!upgradeFileNameSchema.safeParse(file.name).success) return { key: 'fileNameInvalid' };
  if (hasSuffix(file.name))
    return { key: 'fileSuffix', name: file.name, bare: withoutSuffix(file.name) };
  if (file.size === 0) return { key: 'fileEmpty' };
  if (file.size > UPGRADE_FILE_MAX_BYTES) return { key: 'fileTooLarge' };
  return null;
}

/** Whether a file may be sent to a gateway of this type (a file names the types it is for). */
export function fileFitsType(
  file: { typeKeys: readonly number[] },
  typeKey: number | null,
): boolean {
  return typeKey !== null && file.typeKeys.includes(typeKey);
}

/** One stored upgrade file, as the console lists it. */
export const upgradeFileSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  version: z.string(),
  fileName: z.string(),
  size: z.number().int().positive(),
  /** Gateway type keys the file is for. */
  typeKeys: z.array(z.number().int()),
  uploadedAt: z.string(),
});
export type UpgradeFile = z.infer<typeof upgradeFileSchema>;

/** An upgrade command's own facts, beside its state: what it installs and how far it got. */
export const commandUpgradeSchema = z.object({
  version: z.string(),
  fromVersion: z.string(),
  fileName: z.string(),
  sha256: z.string(),
  stage: z.enum(UPGRADE_STAGES).nullable(),
  percent: z.number().nullable(),
});
export type CommandUpgrade = z.infer<typeof commandUpgradeSchema>;

/** POST /upgrade/send: one stored file to one or many houses' gateways. */
export const sendUpgradeSchema = z.object({
  houseIds: z.array(z.number().int().positive()).min(1).max(1000),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'upgrade.fileNotFound'),
});
export type SendUpgrade = z.infer<typeof sendUpgradeSchema>;

/** POST /upgrade/deleteFile: a stored file that no upgrade under way installs. */
export const deleteUpgradeFileSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'upgrade.fileNotFound'),
});

/** GET /upgrade/download/:networkId/:token (the gateway also sends its device token). */
export const upgradeDownloadParamsSchema = z.object({
  networkId: z.string().min(1).max(64),
  token: z.string().min(16).max(128),
});
