import { PARAM_BY_KEY } from '../../src/contract/envcontrol';
import {
  configAckSchema,
  configReportSchema,
  deviceLogReplySchema,
  upgradeProgressSchema,
  type ConfigAck,
  type ConfigReport,
  type DeviceLogReply,
  type GatewayReplyTopic,
  type UpgradeProgress,
} from '../../src/contract/gateway';
import type { ReplyRefusal } from '../mqtt/replyPort';

export type { ReplyRefusal } from '../mqtt/replyPort';

export type ParsedReply =
  | { kind: 'config/ack'; data: ConfigAck }
  | { kind: 'config/report'; data: ConfigReport }
  | { kind: 'log'; data: DeviceLogReply }
  | { kind: 'upgrade/progress'; data: UpgradeProgress };

const SCHEMAS = {
  'config/ack': configAckSchema,
  'config/report': configReportSchema,
  log: deviceLogReplySchema,
  'upgrade/progress': upgradeProgressSchema,
} as const satisfies Record<GatewayReplyTopic, unknown>;

/** The first key outside the parameter catalogue, or undefined. */
function unknownKey(values: Record<string, number> | undefined): string | undefined {
  return values ? Object.keys(values).find((key) => !PARAM_BY_KEY.has(key)) : undefined;
}

/**
 * Checks a gateway's answer against its contract before anything is stored. Nothing is half
 * accepted: one parameter outside the catalogue refuses the whole message, as one unknown
 * metric refuses a reading. The payload's size was capped by its topic before (server/mqtt/inbox.ts).
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
