import { z } from 'zod';

/** `roost/v1/{networkId}/status`, retained, also the gateway's will. */
export const gatewayStatusSchema = z.object({
  online: z
    .boolean()
    .describe('true once connected and subscribed; false in the will and in a goodbye.'),
  network: z
    .enum(['wired', 'wireless'])
    .optional()
    .describe('How the gateway reaches the internet.'),
  version: z.string().max(40).optional().describe('The firmware version it runs.'),
});
export type GatewayStatusMessage = z.infer<typeof gatewayStatusSchema>;

/** `roost/v1/{networkId}/event`: controller-side alarms and DI inputs. */
export const gatewayEventSchema = z.object({
  ts: z.number().int().positive().describe('When it happened: milliseconds since 1970-01-01 UTC.'),
  kind: z.enum(['alarm', 'di']).describe('A controller alarm, or a digital input.'),
  code: z
    .string()
    .max(40)
    .describe('What it is about, e.g. `fan_failure`, `high_temperature`, `probe_2_disconnected`.'),
  active: z.boolean().describe('true when it starts, false when it ends.'),
  text: z.string().max(200).optional().describe('The controller’s own words, shown as they are.'),
});
export type GatewayEventMessage = z.infer<typeof gatewayEventSchema>;
