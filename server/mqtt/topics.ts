import type { GatewayInfo } from '../ingest/gatewayDirectory';
import type { IngestPipeline } from '../ingest/pipeline';

/** The gateways' MQTT topics (`roost/v1/{networkId}/…`, listed in the README). A gateway may only use the topics under its own network id. */
export const TOPIC_ROOT = 'roost/v1';

export const GATEWAY_TOPICS = [
  'telemetry',
  'status',
  'event',
  'config/set',
  'config/ack',
  'config/report',
  'upgrade',
  'upgrade/progress',
  'log/get',
  'log',
] as const;
export type GatewayTopic = (typeof GATEWAY_TOPICS)[number];

export function gatewayTopic(networkId: string, kind: GatewayTopic): string {
  return `${TOPIC_ROOT}/${networkId}/${kind}`;
}

/** Splits `roost/v1/{networkId}/{kind}`; null for anything else. */
export function parseGatewayTopic(topic: string): { networkId: string; kind: GatewayTopic } | null {
  const prefix = `${TOPIC_ROOT}/`;
  if (!topic.startsWith(prefix)) return null;
  const rest = topic.slice(prefix.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  const networkId = rest.slice(0, slash);
  const kind = rest.slice(slash + 1);
  return (GATEWAY_TOPICS as readonly string[]).includes(kind)
    ? { networkId, kind: kind as GatewayTopic }
    : null;
}

/** What a gateway may publish: its own telemetry, status, events and acknowledgements. */
export const GATEWAY_PUBLISHES: readonly GatewayTopic[] = [
  'telemetry',
  'status',
  'event',
  'config/ack',
  'config/report',
  'upgrade/progress',
  'log',
];

/** What a gateway may subscribe to: the commands addressed to it, and nothing of another gateway. */
export const GATEWAY_SUBSCRIBES: readonly GatewayTopic[] = ['config/set', 'upgrade', 'log/get'];

/** Gateway messages that answer a command, handled by the House Setting feature. */
export const GATEWAY_REPLIES: readonly GatewayTopic[] = [
  'config/ack',
  'config/report',
  'upgrade/progress',
  'log',
];

/**
 * The most bytes a gateway's message may carry, per topic, far above what an honest gateway
 * sends and far below the broker's packet cap (MAX_PACKET_BYTES, 256 KiB): a whole parameter
 * set is under 1 KiB, and one 198 KB config/report with 18,000 made-up keys once held the
 * embedded database for 7–9 s. A message over its cap is refused before it is parsed.
 */
export const MAX_PAYLOAD_BYTES: Readonly<Partial<Record<GatewayTopic, number>>> = {
  // A reading with every metric and device of a house is a few KiB.
  telemetry: 64 * 1024,
  status: 1024,
  event: 2048,
  'config/ack': 8 * 1024,
  'config/report': 8 * 1024,
  'upgrade/progress': 2048,
  // DEVICE_LOG_LINES lines of up to 500 characters, escaped.
  log: 128 * 1024,
};

/**
 * What a gateway's message on `kind` asks of the pipeline (on either broker); a topic a gateway
 * may not publish asks nothing. `known`: the gateway, when its broker signed it in.
 */
export function submitByTopic(
  pipeline: IngestPipeline,
  networkId: string,
  kind: GatewayTopic,
  payload: Buffer,
  known?: GatewayInfo,
): Promise<unknown> {
  const cap = MAX_PAYLOAD_BYTES[kind];
  if (cap !== undefined && payload.length > cap)
    return Promise.resolve(
      pipeline.rejected(networkId, 'tooLarge', `${kind}: ${payload.length} bytes, at most ${cap}`),
    );
  switch (kind) {
    case 'telemetry':
      return pipeline.submitTelemetry(networkId, payload, known);
    case 'status':
      return pipeline.submitStatus(networkId, payload);
    case 'event':
      return pipeline.submitEvent(networkId, payload);
    default:
      return GATEWAY_REPLIES.includes(kind)
        ? pipeline.submitReply(networkId, kind, payload)
        : Promise.resolve();
  }
}
