import { hostname } from 'node:os';
import mqtt, { type MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { IngestPipeline } from '../ingest/pipeline';
import { READ_AHEAD, acknowledgeInOrder, type AckLink } from './ackInOrder';
import { ThrottledLog } from '../throttledLog';
import { disableNagle } from './noDelay';
import { GATEWAY_REPLIES, TOPIC_ROOT, parseGatewayTopic } from '../../src/contract/gateway';
import { submitByTopic } from './inbox';
import type { CommandReplyPort } from './replyPort';

/**
 * Several clients in the same shared subscription: the broker splits the load between them, and
 * readings keep arriving while one of them reconnects. (Each holds up to READ_AHEAD readings in
 * flight, so their number is not what bounds the batches.)
 */
const INGEST_CLIENTS = 8;
/** Reconnect quickly after a broker restart: gateways keep sending meanwhile. */
const RECONNECT_PERIOD_MS = 1_000;
/**
 * Our sessions outlive a restart by this much, so readings published meanwhile wait in the
 * broker (MQTT 5 session expiry); a process that never comes back stops collecting them then.
 */
const SESSION_EXPIRY_SECONDS = 3_600;

export interface ExternalIngestOptions {
  url: string;
  pipeline: IngestPipeline;
  /** Where the gateways' answers to commands go: the command side. */
  replies: CommandReplyPort;
  /** Tells this process's client ids apart from other processes' on the same host. */
  instance: string;
  /** Every Roost process joins this shared-subscription group, so the broker splits the load. */
  shareGroup: string;
  log: FastifyBaseLogger;
}

export interface ExternalIngest {
  connected(): boolean;
  /** Sends a command to a gateway (QoS 1) through whichever client is connected. */
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Ingest from an external broker (Mosquitto, EMQX): persistent sessions with stable client ids,
 * QoS 1 shared subscriptions, and the PUBACK sent only after the reading is stored.
 * Authentication of gateways and their topic rights is the external broker's own (README).
 */
export async function startExternalIngest(options: ExternalIngestOptions): Promise<ExternalIngest> {
  const { url, pipeline, instance, log } = options;
  const inbox = { ingest: pipeline, replies: options.replies };
  const share = `$share/${options.shareGroup}`;
  const clients: MqttClient[] = [];
  const subscribed: Array<Promise<void>> = [];
  const failures = new ThrottledLog(log);
  // Gateways' silence counts only while at least one of our clients hears the broker.
  pipeline.linkChanged(false);
  for (let i = 0; i < INGEST_CLIENTS; i += 1) {
    const client = mqtt.connect(url, {
      clientId: `roost-ingest-${hostname()}-${instance}-${i}`,
      clean: false,
      protocolVersion: 5,
      // The broker holds back beyond this many unacknowledged readings (our read-ahead).
      properties: { sessionExpiryInterval: SESSION_EXPIRY_SECONDS, receiveMaximum: READ_AHEAD },
      reconnectPeriod: RECONNECT_PERIOD_MS,
      connectTimeout: 10_000,
    });
    disableNagle(client);
    let link = linkOf(client);
    // Before mqtt.js handles a PUBLISH: a QoS 1 reading is handed on at once and acknowledged
    // after its commit (acknowledgeInOrder). With mqtt.js's own acknowledgement (customHandleAcks)
    // a client read its next message only after the last one's PUBACK: 8 readings in flight in
    // all, and at 1,000 readings/s the backlog (and an alarm's delay) grew to seconds.
    client.on('packetreceive', (packet) => {
      if (packet.cmd !== 'publish') return;
      const topic = parseGatewayTopic(packet.topic);
      const work = topic
        ? submitByTopic(inbox, topic.networkId, topic.kind, packet.payload as Buffer)
        : Promise.resolve();
      // Not stored: acknowledgeInOrder closes the connection before its PUBACK, so the broker
      // sends it again. While the database is away every message fails: one line per 10 s.
      work.catch((error: Error) =>
        failures.error(
          'store',
          { err: error },
          'storing a message from the external broker failed',
        ),
      );
      if (packet.qos === 1) {
        if (link.stream !== client.stream) link = linkOf(client);
        acknowledgeInOrder(link, packet, work, () => undefined);
      }
    });
    let firstSubscription: () => void = () => undefined;
    subscribed.push(new Promise<void>((resolve) => (firstSubscription = resolve)));
    client.on('connect', () => {
      pipeline.linkChanged(true);
      client.subscribe(
        [
          `${share}/${TOPIC_ROOT}/+/telemetry`,
          `${share}/${TOPIC_ROOT}/+/status`,
          `${share}/${TOPIC_ROOT}/+/event`,
          ...GATEWAY_REPLIES.map((kind) => `${share}/${TOPIC_ROOT}/+/${kind}`),
        ],
        { qos: 1 },
        (error) => {
          if (error) log.error({ err: error }, 'subscribing on the external broker failed');
          else firstSubscription();
        },
      );
    });
    client.on('close', () => {
      if (!clients.some((c) => c.connected)) pipeline.linkChanged(false);
    });
    client.on('error', (error) => log.warn({ err: error }, 'external broker connection error'));
    clients.push(client);
  }
  // Ready only once every client is subscribed: a broker drops a QoS 1 message published to a
  // shared group with no member yet, so "connected" alone would let readings fall through.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(subscribed),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no subscription on the MQTT broker at ${url} within 10 s`)),
        10_000,
      );
    }),
  ])
    .finally(() => clearTimeout(timer))
    .catch(async (error: Error) => {
      await Promise.all(clients.map((c) => c.endAsync(true)));
      throw error;
    });
  return {
    connected: () => clients.some((c) => c.connected),
    async publish(topic, payload) {
      const client = clients.find((c) => c.connected);
      if (!client) throw new Error('no connection to the MQTT broker');
      await client.publishAsync(topic, payload, { qos: 1 });
    },
    async close() {
      await Promise.all(clients.map((c) => c.endAsync()));
    },
  };
}

/**
 * The connection a client has now, as acknowledgeInOrder sees it: once the client reconnects,
 * this one counts as closed, so a commit that ends later writes no PUBACK on the new connection
 * (the broker sends those messages again when the session resumes; a resend is not stored
 * twice).
 */
function linkOf(client: MqttClient): AckLink & { stream: MqttClient['stream'] } {
  const stream = client.stream;
  return {
    stream,
    get connected() {
      return client.connected && client.stream === stream;
    },
    conn: { write: (bytes: Buffer) => stream.write(bytes) },
    close: () => client.end(true, () => client.reconnect()),
  };
}
