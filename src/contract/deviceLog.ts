import { z } from 'zod';

/**
 * A gateway's device log, asked for from House Setting ("load device log"): a command of kind
 * `log` carried on `roost/v1/{networkId}/log/get` `{ id, lines }`, answered on `…/log`
 * `{ id, lines: [...] }` (src/contract/gateway). The server keeps each gateway's last few answers.
 */
export const DEVICE_LOG_KEEP = 5;
/** How long a log request waits for its gateway: within the console's 10 s request timeout. */
export const DEVICE_LOG_WAIT_SECONDS = 8;

/** POST /envcontrol/deviceLog and GET /envcontrol/deviceLog?houseId= */
export const deviceLogRequestSchema = z.object({ houseId: z.number().int().positive() });

export const deviceLogSchema = z.object({
  commandId: z.string(),
  /** When the gateway answered (ISO). */
  at: z.string(),
  lines: z.array(z.string()),
});
export type DeviceLog = z.infer<typeof deviceLogSchema>;
/** A house's kept logs, newest first. */
export const deviceLogListSchema = z.array(deviceLogSchema);
