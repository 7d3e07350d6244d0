import { z } from 'zod';

/**
 * What a gateway reports while it upgrades (`upgrade/progress`): downloading (with a percent),
 * installing, restarting, then `done` with the version it came back on, or `failed` with its
 * reason. `noUpdate` as a failure reason says it already runs that version.
 */
export const UPGRADE_STAGES = [
  'downloading',
  'installing',
  'restarting',
  'done',
  'failed',
] as const;
export type UpgradeStage = (typeof UPGRADE_STAGES)[number];
/** The reason a gateway gives when it already runs the version it was sent. */
export const UPGRADE_NO_UPDATE = 'noUpdate';
/** A download link works this long after it is sent, and once. */
export const UPGRADE_TOKEN_SECONDS = 300;

/** `roost/v1/{networkId}/upgrade/progress`. */
export const upgradeProgressSchema = z.object({
  id: z.string().min(1).max(64).describe('The id of the upgrade order it answers.'),
  status: z.enum(UPGRADE_STAGES).describe('Where the upgrade is.'),
  percent: z.number().min(0).max(100).optional().describe('With downloading: how much, in %.'),
  version: z.string().max(64).optional().describe('With done: the version it came back on.'),
  reason: z
    .string()
    .max(500)
    .optional()
    .describe(`With failed: why; \`${UPGRADE_NO_UPDATE}\` when it already runs that version.`),
});
export type UpgradeProgress = z.infer<typeof upgradeProgressSchema>;

/** `roost/v1/{networkId}/upgrade`: what the server sends a gateway to upgrade. */
export const upgradeOrderSchema = z.object({
  id: z.string().describe('The order’s id: echo it in every upgrade/progress.'),
  version: z.string().describe('The version the file installs.'),
  url: z
    .string()
    .describe(
      `Where to download the file (HTTP GET with the header \`Authorization: Bearer <device token>\`); the link works once, for ${UPGRADE_TOKEN_SECONDS} s.`,
    ),
  sha256: z.string().describe('The file’s SHA-256, lower-case hex: check it before installing.'),
  size: z.number().int().describe('The file’s size in bytes.'),
});
export type UpgradeOrder = z.infer<typeof upgradeOrderSchema>;
