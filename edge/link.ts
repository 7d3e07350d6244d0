import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import {
  GATEWAY_SUBSCRIBES,
  gatewayTopic,
  parseGatewayTopic,
  type GatewayTopic,
} from '../src/contract/gateway';
import type { DiskStore } from './store';

/** Unacknowledged QoS 1 messages at once: a backlog drains fast, and in order. */
const MAX_INFLIGHT = 100;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;
const KEEPALIVE_S = 30;
/** Replies (acks, reports, logs) kept while offline: the server resends commands anyway. */
const MAX_REPLIES = 200;

export type ReplyKind = 'config/ack' | 'config/report' | 'upgrade/progress' | 'log';

export interface LinkOptions {
  url: string;
  networkId: string;
  token: string;
  version: string;
  ca?: Buffer;
  log(line: string): void;
}

/**
 * A house's connection to Roost, as a gateway: readings and events from the disk store, in
 * order, QoS 1, each removed from the store only on its PUBACK; replies to commands ahead of
 * any backlog. A fresh mqtt.js client per connection, so nothing in flight on a dead one is
 * lost inside mqtt.js; reconnects with a growing, jittered delay.
 */
export class HouseLink {
  private client: MqttClient | null = null;
  private listening = false;
  private stopped = false;
  private failures = 0;
  private retry: NodeJS.Timeout | null = null;
  private readonly inflight = new Set<number>();
  private readonly replies: Array<{ kind: ReplyKind; payload: string }> = [];
  private lastError = '';
  onCommand: (kind: GatewayTopic, payload: Buffer) => void = () => undefined;
  onListening: () => void = () => undefined;

  constructor(
    private readonly options: LinkOptions,
    private readonly store: DiskStore,
  ) {}

  get connected(): boolean {
    return this.listening;
  }

  start(): void {
    this.open();
  }

  /** A reading or event: on disk first, then sent when the link allows. */
  keep(kind: 'telemetry' | 'event', payload: unknown, t = Date.now()): void {
    this.store.append(gatewayTopic(this.options.networkId, kind), JSON.stringify(payload), t);
    this.pump();
  }

  /** An answer to a command: sent before any backlog. */
  reply(kind: ReplyKind, payload: unknown): void {
    if (this.replies.length >= MAX_REPLIES) this.replies.shift();
    this.replies.push({ kind, payload: JSON.stringify(payload) });
    this.pump();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (!client) return;
    client.removeAllListeners();
    client.on('error', () => undefined);
    if (this.listening) {
      const status = gatewayTopic(this.options.networkId, 'status');
      await Promise.race([
        client.publishAsync(status, JSON.stringify({ online: false }), { qos: 1, retain: true }),
        new Promise((r) => setTimeout(r, 2000)),
      ]).catch(() => undefined);
    }
    this.listening = false;
    await Promise.race([client.endAsync(), new Promise((r) => setTimeout(r, 2000))]).catch(
      () => undefined,
    );
    client.end(true);
  }

  private open(): void {
    if (this.stopped) return;
    const { networkId, token, url } = this.options;
    const status = gatewayTopic(networkId, 'status');
    const options: IClientOptions = {
      clientId: `edge-${networkId}`,
      username: networkId,
      password: token,
      clean: true,
      keepalive: KEEPALIVE_S,
      connectTimeout: 10_000,
      reconnectPeriod: 0,
      protocolVersion: 4,
      will: { topic: status, payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
      ...(this.options.ca ? { ca: this.options.ca } : {}),
    };
    const client = connect(url, options);
    this.client = client;
    this.listening = false;
    client.on('connect', () => {
      if (this.client !== client) return;
      this.failures = 0;
      this.lastError = '';
      this.options.log(`${networkId}: connected to ${url}`);
      const commands = GATEWAY_SUBSCRIBES.map((kind) => gatewayTopic(networkId, kind));
      client.subscribe(commands, { qos: 1 }, (error) => {
        if (this.client !== client || error) return;
        this.listening = true;
        const online = { online: true, network: 'wired', version: this.options.version };
        client.publish(status, JSON.stringify(online), { qos: 1, retain: true }, () => undefined);
        this.onListening();
        this.pump();
      });
    });
    client.on('message', (topic, payload) => {
      if (this.client !== client) return;
      const parsed = parseGatewayTopic(topic);
      if (parsed?.networkId === networkId) this.onCommand(parsed.kind, payload);
    });
    client.on('error', (error) => {
      if (this.client !== client || error.message === this.lastError) return;
      this.lastError = error.message;
      this.options.log(`${networkId}: ${error.message}`);
    });
    client.on('close', () => {
      if (this.client !== client) return;
      this.drop();
      this.scheduleRetry();
    });
  }

  private drop(): void {
    const client = this.client;
    this.client = null;
    this.listening = false;
    // What was in flight stays in the store and goes again on the next connection.
    this.inflight.clear();
    if (!client) return;
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end(true);
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.failures);
    this.failures += 1;
    this.retry = setTimeout(
      () => {
        this.retry = null;
        this.open();
      },
      delay * (0.5 + Math.random()),
    );
  }

  private pump(): void {
    const client = this.client;
    if (!client || !this.listening) return;
    while (this.replies.length) {
      const r = this.replies.shift()!;
      const topic = gatewayTopic(this.options.networkId, r.kind);
      client.publish(topic, r.payload, { qos: 1 }, () => undefined);
    }
    const room = MAX_INFLIGHT - this.inflight.size;
    if (room <= 0) return;
    for (const record of this.store.peek(room, this.inflight)) {
      this.inflight.add(record.n);
      client.publish(record.topic, record.payload, { qos: 1 }, (error) => {
        if (this.client !== client) return;
        this.inflight.delete(record.n);
        if (!error) this.store.ack(record.n);
        // A failed publish stays in the store; the next pump (or connection) sends it again.
        if (!error) this.pump();
      });
    }
  }
}
