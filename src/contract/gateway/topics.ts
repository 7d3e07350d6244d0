/**
 * The gateways' MQTT topics: `roost/v{version}/{networkId}/{kind}`. A gateway may only use the
 * topics under its own network id. The server, the simulator and any other gateway program name
 * topics through this file, so a topic cannot be spelled two ways.
 */

/**
 * The contract's version, in every topic. Adding a topic, or an optional field to a payload,
 * keeps it; anything an existing gateway or server would misread (a field removed, renamed,
 * retyped or made required) takes a new version, served beside the old one.
 */
export const GATEWAY_CONTRACT_VERSION = 1;

export const TOPIC_ROOT = `roost/v${GATEWAY_CONTRACT_VERSION}`;

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

/** What a gateway may publish: its own telemetry, status, events and answers to commands. */
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

/** Whether an MQTT topic filter matches a topic: `+` is one level, a final `#` any rest. */
export function filterMatches(filter: string, topic: string): boolean {
  const want = filter.split('/');
  const have = topic.split('/');
  for (let i = 0; i < want.length; i += 1) {
    if (want[i] === '#') return i === want.length - 1;
    if (i >= have.length) return false;
    if (want[i] !== '+' && want[i] !== have[i]) return false;
  }
  return want.length === have.length;
}

/**
 * The command topics a gateway's subscription brings it, or null when the filter is refused.
 * A filter is the gateway's own when its first levels are literally
 * `roost/v1/{its networkId}/`: the exact command topics, or a wildcard below them
 * (`roost/v1/{networkId}/#`, `…/+`, `…/config/+`). A wildcard brings only the command topics
 * it matches, never the gateway's own messages or its retained status (the broker forwards
 * nothing else to a gateway). A filter reaching another gateway's topics (`roost/v1/+/…`, `#`),
 * or matching no command topic (`…/telemetry`), is refused: SUBACK return code 0x80, and the
 * connection stays open.
 */
export function subscriptionCommands(networkId: string, filter: string): GatewayTopic[] | null {
  const own = `${TOPIC_ROOT}/${networkId}/`;
  if (!filter.startsWith(own)) return null;
  const matched = GATEWAY_SUBSCRIBES.filter((kind) =>
    filterMatches(filter, gatewayTopic(networkId, kind)),
  );
  return matched.length > 0 ? matched : null;
}

/** A gateway's messages that answer a command: they go to the command side, not to ingest. */
export const GATEWAY_REPLIES = ['config/ack', 'config/report', 'upgrade/progress', 'log'] as const;
export type GatewayReplyTopic = (typeof GATEWAY_REPLIES)[number];

export function isReplyTopic(kind: GatewayTopic): kind is GatewayReplyTopic {
  return (GATEWAY_REPLIES as readonly string[]).includes(kind);
}

/** Largest MQTT packet the embedded broker accepts: a 30-metric reading is ~1 KiB. */
export const MAX_PACKET_BYTES = 256 * 1024;

/**
 * The most bytes a gateway's message may carry, per topic, far above what an honest gateway
 * sends and far below the broker's packet cap (MAX_PACKET_BYTES): a whole parameter set is under 1 KiB,
 * and one 198 KB config/report with 18,000 made-up keys once held the embedded database for
 * 7–9 s. A message over its cap is refused before it is parsed.
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
