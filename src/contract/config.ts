import { z } from 'zod';
import { EDITIONS } from './editions';

/** GET /api/config: the flags the console needs before anyone signs in. */
export const publicConfigSchema = z.object({
  edition: z.enum(EDITIONS),
  alarmScreen: z.boolean(),
  version: z.string(),
  demo: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** GET /api/version: the release this server runs (package.json's version). */
export const versionSchema = z.object({ version: z.string() });

/** GET /api/health */
export const healthSchema = z.object({
  db: z.enum(['ok', 'down']),
  mqtt: z.enum(['ok', 'off', 'down']),
  live: z.enum(['ok', 'down']),
  /** Present when the database takes no write now (a full disk, a read-only database). */
  write: z.enum(['ok', 'down']).optional(),
  /** What is wrong, when something is. */
  reason: z.string().optional(),
});
export type Health = z.infer<typeof healthSchema>;
