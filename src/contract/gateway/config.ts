import { z } from 'zod';
import { PARAMS } from '../envcontrol';

/**
 * A gateway's parameters as it sends them (config/report, config/ack read-back): at most the
 * catalogue's size. A gateway's report once carried 18,000 made-up keys, and each became a
 * stored change row; the catalogue is the bound, checked key by key on the server.
 */
const gatewayParamsSchema = z
  .record(z.string().max(64), z.number())
  .refine((values) => Object.keys(values).length <= PARAMS.length, {
    message: `more than ${PARAMS.length} parameters`,
  });

const commandId = z.string().min(1).max(64);

/** `roost/v1/{networkId}/config/set`: parameters the server asks a gateway to apply. */
export const configSetSchema = z.object({
  id: commandId.describe('The command’s id: echo it in config/ack. A resent command keeps it.'),
  params: z
    .record(z.string().max(64), z.number())
    .describe('Parameter key → value to apply, keys from the parameter catalogue below.'),
  expiresAt: z
    .string()
    .optional()
    .describe(
      'ISO 8601 time after which the server no longer waits for an answer; the server always sends it.',
    ),
});
export type ConfigSet = z.infer<typeof configSetSchema>;

/** `roost/v1/{networkId}/config/ack`: a gateway's answer to config/set. */
export const configAckSchema = z.object({
  id: commandId.describe('The id of the config/set it answers.'),
  status: z
    .enum(['applied', 'rejected'])
    .describe('applied: every value was written; rejected: none was (all or nothing).'),
  values: gatewayParamsSchema
    .optional()
    .describe(
      `With applied: the values read back from the controller after writing (at most ${PARAMS.length}, catalogue keys only).`,
    ),
  reason: z.string().max(500).optional().describe('With rejected: why, in the controller’s words.'),
});
export type ConfigAck = z.infer<typeof configAckSchema>;

/** `roost/v1/{networkId}/config/report`: a gateway's whole parameter set. */
export const configReportSchema = z.object({
  ts: z.number().optional().describe('When it was read: milliseconds since 1970-01-01 UTC.'),
  version: z.string().max(64).optional().describe('The firmware version it runs.'),
  params: gatewayParamsSchema.describe(
    `Every parameter the controller holds: key → value (at most ${PARAMS.length}, catalogue keys only).`,
  ),
  source: z
    .enum(['device', 'local'])
    .describe('device: sent on connecting; local: someone changed a value at the controller.'),
});
export type ConfigReport = z.infer<typeof configReportSchema>;
