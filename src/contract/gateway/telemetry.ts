import { z } from 'zod';

/** Readings may be this far in the future (gateway clocks drift) and this old (a gateway's backlog). */
export const MAX_CLOCK_AHEAD_MS = 5 * 60 * 1000;
export const MAX_BACKLOG_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * `roost/v1/{networkId}/telemetry` (and POST /api/ingest/{networkId}). Metric values are
 * checked against the catalogue by `decodeTelemetry` on the server, so an unknown key or an
 * impossible value is refused with its reason. The server reads the common shape with a faster
 * hand-written check (`plainTelemetry`); a test holds the two together.
 */
export const telemetrySchema = z.object({
  ts: z
    .union([
      z.number().int().positive(),
      z.iso.datetime({ offset: true }).transform((s) => Date.parse(s)),
    ])
    .describe(
      'When the reading was taken: milliseconds since 1970-01-01 UTC, or an ISO 8601 time with its offset. At most 5 minutes ahead of the server clock and 30 days old. With the network id it identifies the reading: a resent reading is stored once.',
    ),
  seq: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('The gateway’s own counter of readings, for tracing; not used to deduplicate.'),
  metrics: z
    .record(z.string().max(40), z.number().finite())
    .describe(
      'Metric key → value, keys from the metric catalogue below (or a house’s extra parameters). A value of -999, -998, -888 (or any ≤ -600) says the sensor is not connected, not configured, not entered (or in error).',
    ),
  mode: z.number().int().min(0).max(255).optional().describe('The controller’s run mode code.'),
  devices: z
    .record(
      z.string().max(40),
      z.object({
        state: z
          .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)])
          .describe('0 off, 1 on (forward), 2 on (reverse), 3 error.'),
        opening: z.number().min(0).max(100).optional().describe('Opening in %, for inlets.'),
      }),
    )
    .optional()
    .describe('Device key (`<type>_<n>`, e.g. `fan_3`, n from 1 to 99) → its state.'),
});
export type TelemetryMessage = z.input<typeof telemetrySchema>;
