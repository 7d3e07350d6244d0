import { z } from 'zod';

/** How many of its latest log lines the server asks a gateway for. */
export const DEVICE_LOG_LINES = 100;

/** `roost/v1/{networkId}/log/get`: the server asks for a gateway's latest log lines. */
export const logGetSchema = z.object({
  id: z.string().min(1).max(64).describe('The request’s id: echo it in the answer on `log`.'),
  lines: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`How many of the latest lines to send (the server asks for ${DEVICE_LOG_LINES}).`),
});
export type LogGet = z.infer<typeof logGetSchema>;

/** `roost/v1/{networkId}/log`: a gateway's answer to log/get. */
export const deviceLogReplySchema = z.object({
  id: z.string().min(1).max(64).describe('The id of the log/get it answers.'),
  lines: z
    .array(z.string().max(500))
    .max(1000)
    .describe('The lines, oldest first, each at most 500 characters.'),
});
export type DeviceLogReply = z.infer<typeof deviceLogReplySchema>;
