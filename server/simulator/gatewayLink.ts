import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import {
  GATEWAY_SUBSCRIBES,
  gatewayTopic,
  parseGatewayTopic,
  type GatewayTopic,
} from '../../src/contract/gateway';
import { Outbox } from './outbox';

/** Per gateway: 10,000 readings is a week at the default 60 s interval, about 6 MB of JSON. */
export const OUTBOX_CAPACITY = 10_000;
/**
 * QoS 1 messages a gateway may have unacknowledged at once: enough to drain a backlog quickly
 * while the server acknowledges only after its batch is stored, so nothing acknowledged is lost.
 */
const MAX_INFLIGHT = 100;
/**
 * First retry after a lost connection, doubling up to the maximum; ±50 % jitter so 42
 * gateways do not all reconnect in the same millisecond after a broker restart.
 */
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;
/** A broker that accepts the socket but never answers CONNECT. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Keep-alive ping: the broker notices a dead gateway after 1.5 × this. */
const KEEPALIVE_S = 30;
/** How long stop() waits for the goodbye status and DISCONNECT before cutting the socket. */
const STOP_GRACE_MS = 2_000;
/** CONNACK codes that retrying will not fix: bad user name or password, not authorised. */
const REFUSED_CODES = new Set([4, 5, 134, 135]);

export type LinkState =
  'connecting' | 'connected' | 'waiting' | 'faultOffline' | 'refused' | 'stopped';

export interface GatewayIdentity {
  networkId: string;
  token: string;
  network: 'wired' | 'wireless';
  version: string;
}

export interface LinkCounters {
  sent: number;
  connects: number;
  errors: number;
}

/**
 * One simulated gateway's MQTT side: its connection (a fresh mqtt.js client per connection, so
 * nothing in flight on a dead one can be lost inside mqtt.js), its outbox, its status and will.
 */
export class GatewayLink {
  readonly outbox = new Outbox(OUTBOX_CAPACITY);
  readonly counters: LinkCounters = { sent: 0, connects: 0, errors: 0 };
  state: LinkState = 'waiting';
  private client: MqttClient | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private lastError = '';
  /**
   * The broker has acknowledged this connection's command subscription: only then does the
   * gateway say it is online and send what waits in its outbox, in that order.
   */
  private listening = false;

  /**
   * Commands addressed to this gateway (config/set, upgrade, log/get), and a connection made:
   * the controller's side. Each part of the gateway (configuration, upgrades, log) listens.
   */
  private readonly commandHandlers: Array<(kind: GatewayTopic, payload: Buffer) => void> = [];
  private readonly connectedHandlers: Array<() => void> = [];

  constructor(
    private readonly url: string,
    private identity: GatewayIdentity,
    private readonly onError: (error: Error) => void,
    /** The CA a TLS broker's certificate is checked against (mqtts://); the system's without. */
    private readonly ca?: Buffer,
  ) {}

  get connected(): boolean {
    return this.state === 'connected';
  }

  /** The firmware version the gateway runs (and says in its status). */
  get version(): string {
    return this.identity.version;
  }

  onCommand(handler: (kind: GatewayTopic, payload: Buffer) => void): void {
    this.commandHandlers.push(handler);
  }

  onConnected(handler: () => void): void {
    this.connectedHandlers.push(handler);
  }

  /**
   * Restarts the gateway as after installing firmware: the connection drops without goodbye
   * (the broker publishes the will), and after `downMs` it connects again on `version`.
   * Queued messages wait in the outbox meanwhile.
   */
  restart(version: string, downMs: number): void {
    this.identity = { ...this.identity, version };
    if (this.state === 'stopped' || this.state === 'refused' || this.state === 'faultOffline')
      return;
    this.clearRetry();
    this.drop();
    this.state = 'waiting';
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.state === 'waiting') this.open();
    }, downMs);
  }

  start(): void {
    if (this.state === 'waiting') this.open();
  }

  /** Queues a message and sends what the connection allows. */
  enqueue(
    kind: 'telemetry' | 'event' | 'config/ack' | 'config/report' | 'upgrade/progress' | 'log',
    payload: unknown,
  ): void {
    if (this.state === 'stopped') return;
    this.outbox.push(
      gatewayTopic(this.identity.networkId, kind),
      JSON.stringify(payload),
      kind === 'telemetry',
    );
    this.pump();
  }

  /**
   * An offline fault: cut the socket without DISCONNECT, so the broker publishes the will, and
   * stay away until the fault ends. Readings keep queueing meanwhile.
   */
  setOfflineFault(offline: boolean): void {
    if (
      offline &&
      this.state !== 'faultOffline' &&
      this.state !== 'refused' &&
      this.state !== 'stopped'
    ) {
      this.clearRetry();
      this.drop();
      this.state = 'faultOffline';
    } else if (!offline && this.state === 'faultOffline') {
      this.state = 'waiting';
      this.open();
    }
  }

  /** Says goodbye (retained status offline), disconnects, and stops retrying. */
  async stop(): Promise<void> {
    const client = this.client;
    const wasConnected = this.state === 'connected';
    this.state = 'stopped';
    this.clearRetry();
    if (!client) return;
    this.client = null;
    client.removeAllListeners();
    client.on('error', () => undefined);
    if (wasConnected) {
      const payload = JSON.stringify({ online: false });
      const status = gatewayTopic(this.identity.networkId, 'status');
      await withTimeout(
        client.publishAsync(status, payload, { qos: 1, retain: true }),
        STOP_GRACE_MS,
      ).catch(() => undefined);
    }
    // end(true) after the goodbye: what is still queued stays unsent (reported by the caller).
    await withTimeout(client.endAsync(!wasConnected), STOP_GRACE_MS).catch(() => client.end(true));
  }

  private open(): void {
    this.state = 'connecting';
    const { networkId, token } = this.identity;
    const status = gatewayTopic(networkId, 'status');
    const options: IClientOptions = {
      clientId: `sim-${networkId}`,
      username: networkId,
      password: token,
      clean: false,
      keepalive: KEEPALIVE_S,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // This link reconnects itself with a fresh client: see the class comment.
      reconnectPeriod: 0,
      ...(this.ca ? { ca: this.ca } : {}),
      will: {
        topic: status,
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: true,
      },
    };
    const client = connect(this.url, options);
    this.client = client;
    this.listening = false;
    client.on('connect', () => {
      if (this.client !== client) return;
      this.state = 'connected';
      this.failures = 0;
      this.lastError = '';
      this.counters.connects += 1;
      const online = {
        online: true,
        network: this.identity.network,
        version: this.identity.version,
      };
      // Commands first: "online" and the controller's report each tell the server this
      // gateway listens and it sends what waits, so both go only once the broker has the
      // subscription (a broker that did not keep the session would drop what came sooner).
      const commands = GATEWAY_SUBSCRIBES.map((kind) => gatewayTopic(networkId, kind));
      client.subscribe(commands, { qos: 1 }, () => {
        if (this.client !== client) return;
        this.listening = true;
        // Not through the outbox: the status must not wait behind a backlog. A failure is
        // harmless, the next connection says it again.
        client.publish(status, JSON.stringify(online), { qos: 1, retain: true }, () => undefined);
        for (const handler of this.connectedHandlers) handler();
        this.pump();
      });
    });
    client.on('message', (topic, payload) => {
      if (this.client !== client) return;
      const command = parseGatewayTopic(topic);
      if (command?.networkId !== networkId) return;
      for (const handler of this.commandHandlers) handler(command.kind, payload);
    });
    client.on('error', (error) => {
      if (this.client !== client) return;
      const code = (error as Error & { code?: number | string }).code;
      if (typeof code === 'number' && REFUSED_CODES.has(code)) this.state = 'refused';
      this.report(error);
    });
    client.on('close', () => {
      if (this.client !== client) return;
      this.drop();
      if (this.state === 'connected' || this.state === 'connecting') this.scheduleRetry();
    });
  }

  /** Forgets the current client; what it had in flight goes back to pending. */
  private drop(): void {
    const client = this.client;
    this.client = null;
    this.outbox.failInflight();
    if (!client) return;
    client.removeAllListeners();
    // A destroyed socket can still report late errors: keep them from crashing the process.
    client.on('error', () => undefined);
    // Forced: the socket is destroyed without DISCONNECT, so the broker publishes the will.
    client.end(true);
  }

  private scheduleRetry(): void {
    this.state = 'waiting';
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.failures);
    this.failures += 1;
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = null;
        if (this.state === 'waiting') this.open();
      },
      delay * (0.5 + Math.random()),
    );
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private pump(): void {
    const client = this.client;
    if (!client || this.state !== 'connected' || !this.listening) return;
    for (let item = this.outbox.take(MAX_INFLIGHT); item; item = this.outbox.take(MAX_INFLIGHT)) {
      const sending = item;
      client.publish(sending.topic, sending.payload, { qos: 1 }, (error) => {
        if (error) {
          // Any error, "Connection closed" included: back in the queue, sent on the next
          // connection or the next tick.
          this.outbox.fail(sending);
          return;
        }
        if (sending.state !== 'done' && sending.reading) this.counters.sent += 1;
        this.outbox.ack(sending);
        if (this.client === client) this.pump();
      });
    }
  }

  /** Each distinct error once per gateway until it connects again: no flood while a broker is down. */
  private report(error: Error): void {
    this.counters.errors += 1;
    if (error.message === this.lastError) return;
    this.lastError = error.message;
    this.onError(new Error(`${this.identity.networkId}: ${error.message}`));
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
