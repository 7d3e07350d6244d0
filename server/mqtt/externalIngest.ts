import { hostname } from 'node:os';
import mqtt, { type MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { IngestPipeline } from '../ingest/pipeline';
import { disableNagle } from './noDelay';
import { GATEWAY_REPLIES, TOPIC_ROOT, parseGatewayTopic } from './topics';

/**
 * mqtt.js handles one incoming message at a time and we acknowledge only after the store
 * commits, so one client would store one reading per transaction. A small pool of clients in
 * the same shared subscription gives the pipeline several readings to batch at once.
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
  const share = `$share/${options.shareGroup}`;
  const clients: MqttClient[] = [];
  const subscribed: Array<Promise<void>> = [];
  // Gateways' silence counts only while at least one of our clients hears the broker.
  pipeline.linkChanged(false);
  for (let i = 0; i < INGEST_CLIENTS; i += 1) {
    const client = mqtt.connect(url, {
      clientId: `roost-ingest-${hostname()}-${instance}-${i}`,
      clean: false,
      protocolVersion: 5,
      properties: { sessionExpiryInterval: SESSION_EXPIRY_SECONDS },
      reconnectPeriod: RECONNECT_PERIOD_MS,
      connectTimeout: 10_000,
      customHandleAcks(topic, message, _packet, done) {
        const parsed = parseGatewayTopic(topic);
        const work = !parsed
          ? Promise.resolve()
          : parsed.kind === 'telemetry'
            ? pipeline.submitTelemetry(parsed.networkId, message)
            : parsed.kind === 'status'
              ? pipeline.submitStatus(parsed.networkId, message)
              : parsed.kind === 'event'
                ? pipeline.submitEvent(parsed.networkId, message)
                : GATEWAY_REPLIES.includes(parsed.kind)
                  ? pipeline.submitReply(parsed.networkId, parsed.kind, message)
                  : Promise.resolve();
        work.then(
          () => done(0),
          (error: Error) => {
            // Not stored: drop the connection without a PUBACK so the broker redelivers.
            log.error({ err: error }, 'storing a reading from the external broker failed');
            client.end(true, () => client.reconnect());
          },
        );
      },
    });
    disableNagle(client);
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
