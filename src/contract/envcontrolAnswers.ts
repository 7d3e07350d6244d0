import { z } from 'zod';
import { commandSchema, paramValuesSchema } from './envcontrol';
import { upgradeFileSchema } from './upgrade';

/**
 * What House Setting's and the upgrade files' routes answer, beside the schemas of their rows
 * (kept apart from the gateway's own contract in ./envcontrol.ts, which changes for other reasons).
 */

/** POST /envcontrol/send: the commands queued, one a gateway. */
export const configSentSchema = z.object({ commands: z.array(commandSchema) });

/** GET /envcontrol/autoConfig: the values the house's curves and targets suggest now. */
export const autoConfigSchema = z.object({ params: paramValuesSchema });

/** The stored upgrade files, newest first. */
export const upgradeFileListSchema = z.array(upgradeFileSchema);

/** POST /upgrade/send: the commands queued, and the houses whose gateway already runs the version. */
export const upgradeSentSchema = z.object({
  commands: z.array(commandSchema),
  upToDate: z.array(z.number().int()),
});

/** POST /upgrade/deleteFile: the file gone. */
export const upgradeFileDeletedSchema = z.object({ sha256: z.string() });
