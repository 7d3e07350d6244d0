import { z } from 'zod';
import { PARAM_BY_KEY, PARAMS } from '../../src/contract/envcontrol';
import { deviceLogReplySchema } from '../../src/contract/deviceLog';
import { upgradeProgressSchema } from '../../src/contract/upgrade';
import type { RejectReason } from '../ingest/decode';

/**
 * A gateway's parameters as it sends them (config/report, config/ack read-back): at most the
 * catalogue's size. A gateway's report once carried 18,000 made-up keys, and each became a
 * stored change row; the catalogue is the bound, checked key by key in `parseReply`.
 */
const gatewayParamsSchema = z
  .record(z.string().max(64), z.number())
  .refine((values) => Object.keys(values).length <= PARAMS.length, {
    message: `more than ${PARAMS.length} parameters`,
  });

export const configAckSchema = z.object({
  id: z.string().min(1).max(64),
  status: z.enum(['applied', 'rejected']),
  values: gatewayParamsSchema.optional(),
  reason: z.string().max(500).optional(),
});
export type ConfigAck = z.infer<typeof configAckSchema>;

export const configReportSchema = z.object({
  ts: z.number().optional(),
  version: z.string().max(64).optional(),
  params: gatewayParamsSchema,
  source: z.enum(['device', 'local']),
});
export type ConfigReport = z.infer<typeof configReportSchema>;

export type ParsedReply =
  | { kind: 'config/ack'; data: ConfigAck }
  | { kind: 'config/report'; data: ConfigReport }
  | { kind: 'log'; data: z.infer<typeof deviceLogReplySchema> }
  | { kind: 'upgrade/progress'; data: z.infer<typeof upgradeProgressSchema> };

/** Why a gateway's answer was refused: counted by reason and logged (IngestPipeline.rejected). */
export interface ReplyRefusal {
  reason: RejectReason;
  detail: string;
}

const SCHEMAS = {
  'config/ack': configAckSchema,
  'config/report': configReportSchema,
  log: deviceLogReplySchema,
  'upgrade/progress': upgradeProgressSchema,
} as const;

/** The first key outside the parameter catalogue, or undefined. */
function unknownKey(values: Record<string, number> | undefined): string | undefined {
  return values ? Object.keys(values).find((key) => !PARAM_BY_KEY.has(key)) : undefined;
}

/**
 * Checks a gateway's answer against its contract before anything is stored. Nothing is half
 * accepted: one parameter outside the catalogue refuses the whole message, as one unknown
 * metric refuses a reading. The payload's size was capped by its topic before (topics.ts).
 */
export function parseReply(kind: string, payload: Buffer): ParsedReply | ReplyRefusal {
  if (!(kind in SCHEMAS)) return { reason: 'badTopic', detail: `no answer on ${kind}` };
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    return { reason: 'malformed', detail: `${kind} is not JSON` };
  }
  const known = kind as keyof typeof SCHEMAS;
  const parsed = SCHEMAS[known].safeParse(body);
  if (!parsed.success)
    return { reason: 'schema', detail: `${kind}: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  const reply = { kind: known, data: parsed.data } as ParsedReply;
  const values =
    reply.kind === 'config/report'
      ? reply.data.params
      : reply.kind === 'config/ack'
        ? reply.data.values
        : undefined;
  const key = unknownKey(values);
  if (key !== undefined)
    return { reason: 'unknownParam', detail: `${kind}: ${key.slice(0, 64)} is not a parameter` };
  return reply;
}
