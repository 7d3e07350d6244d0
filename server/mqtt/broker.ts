import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { GatewayInfo } from '../ingest/gatewayDirectory';
import type { IngestPipeline } from '../ingest/pipeline';
import type { ServerEvents } from '../events';
import { ThrottledLog } from '../throttledLog';
import { acknowledgeInOrder } from './ackInOrder';
import { guardedConnection } from './packetGuard';
import {
  GATEWAY_PUBLISHES,
  GATEWAY_SUBSCRIBES,
  MAX_PACKET_BYTES,
  parseGatewayTopic,
  subscriptionCommands,
} from '../../src/contract/gateway';
import { submitByTopic, type GatewayInbox } from './inbox';
import { CertificateFiles, listenTls } from './tlsListener';
import type { MqttTls } from '../config';

/** A socket that has not sent CONNECT within 10 s is closed: idle sockets must not pile up. */
const CONNECT_TIMEOUT_MS = 10_000;
/** aedes' CONNACK return codes. */
const IDENTIFIER_REJECTED = 2;
const BAD_USERNAME_OR_PASSWORD = 4;
/** The SUBACK return code of a refused subscription (0x80 in MQTT 3.1.1), as aedes reports it. */
const SUBACK_REFUSED = 128;
/**
 * While the database cannot answer a sign-in, the CONNACK waits (the token is asked again every
 * second) for at most this long; then the connection is closed without one. A refusal ("server
 * unavailable", code 3) made common clients (mqtt.js by default) give up for good, while a
 * closed connection or their own CONNACK timeout (mqtt.js: 30 s) makes every client try again.
 */
const SIGN_IN_HOLD_MS = 20_000;
const SIGN_IN_RETRY_MS = 1_000;

export interface EmbeddedBroker {
  aedes: Aedes;
  port: number;
  /** The MQTTS listener's port, when TLS is on. */
  tlsPort: number | null;
  close(): Promise<void>;
}

/** The gateway an authenticated client signed in as. */
const gatewayOf = new WeakMap<Client, GatewayInfo>();

function authError(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * The embedded MQTT broker. Gateways sign in with user name = network id and password = their
 * device token; each may only publish and subscribe under its own topics. A telemetry message
 * is acknowledged (PUBACK) only after it is stored (measured: acknowledging first lost 58 % of
 * readings in crashes), by `acknowledgeInOrder`, which lets aedes read on meanwhile.
 */
export async function startEmbeddedBroker(
  inbox: GatewayInbox,
  port: number,
  host: string,
  events?: ServerEvents,
  /** An MQTTS listener too, on `tls.host` (the plain one stays on `host`). */
  tls?: MqttTls & { host: string },
): Promise<EmbeddedBroker> {
  /**
   * Which gateway holds each client id (connected, or a persistent session kept for it), and
   * the connection that signed in under it last, while that is open. A client id is a
   * session's name: a second gateway connecting under it would knock the first offline and
   * inherit its queued messages, so it is refused instead.
   */
  const owners = new Map<string, { networkId: string; client: Client | null }>();
  /**
   * Connections a newer connection of the same gateway took over (`takeOver`): the gateway
   * did not go offline, so their will ("offline") is not published.
   */
  const takenOver = new WeakSet<Client>();
  /**
   * The clients connected now, kept from aedes' public events: its own map of them is private
   * and not in its typings.
   */
  const connected = new Set<Client>();
  const pipeline = inbox.ingest;
  const signInFailures = new ThrottledLog(pipeline.log);
  const aedes: Aedes = await Aedes.createBroker({
    connectTimeout: CONNECT_TIMEOUT_MS,
    authenticate(client, username, password, done) {
      if (!username || !password || username.length > 64) {
        done(authError('bad network id or device token', BAD_USERNAME_OR_PASSWORD), false);
        return;
      }
      verifyHeld(pipeline, signInFailures, client, username, password.toString('utf8')).then(
        (gateway) => {
          // Closed meanwhile (its client gave up, or the hold ran out): nothing to answer.
          if (gateway === CLOSED) return;
          if (!gateway) {
            pipeline.rejected(username, 'badToken', 'wrong device token or unknown network id');
            done(authError('bad network id or device token', BAD_USERNAME_OR_PASSWORD), false);
            return;
          }
          const owner = owners.get(client.id);
          if (owner !== undefined && owner.networkId !== gateway.networkId) {
            pipeline.rejected(username, 'badToken', `client id ${client.id} is another gateway's`);
            done(authError('client id taken', IDENTIFIER_REJECTED), false);
            return;
          }
          owners.set(client.id, { networkId: gateway.networkId, client });
          gatewayOf.set(client, gateway);
          // Under the same client id aedes closes the older connection itself, as MQTT says,
          // once this one is in: it is taken over too, so its will must not say "offline".
          for (const other of connected) if (other.id === client.id) takenOver.add(other);
          done(null, true);
        },
      );
    },
    authorizePublish(client, packet, callback) {
      // The will of a connection taken over: its gateway is online on the newer one.
      if (client && takenOver.has(client)) {
        callback(new Error('connection taken over'));
        return;
      }
      const gateway = client ? gatewayOf.get(client) : undefined;
      const topic = parseGatewayTopic(packet.topic);
      if (
        !gateway ||
        !topic ||
        topic.networkId !== gateway.networkId ||
        !GATEWAY_PUBLISHES.includes(topic.kind)
      ) {
        pipeline.rejected(
          gateway?.networkId ?? '',
          'badTopic',
          `may not publish to ${packet.topic}`,
        );
        callback(new Error('topic not allowed'));
        return;
      }
      const payload = packet.payload as Buffer;
      const work = submitByTopic(inbox, gateway.networkId, topic.kind, payload, gateway);
      // Refused messages are acknowledged too (they are counted and logged): a gateway must not
      // resend a bad message forever. Only a storage failure withholds the PUBACK.
      if (packet.qos === 1 && client) {
        acknowledgeInOrder(client, packet, work, callback);
        return;
      }
      work.then(
        () => callback(null),
        (error: Error) => callback(error),
      );
    },
    authorizeSubscribe(client, subscription, callback) {
      const gateway = gatewayOf.get(client);
      if (!gateway || !subscriptionCommands(gateway.networkId, subscription.topic)) {
        // Refused in the SUBACK (0x80), where the gateway sees it, and said here; an error
        // would close the connection with no reason a gateway could read.
        pipeline.rejected(
          gateway?.networkId ?? '',
          'badTopic',
          `may not subscribe to ${subscription.topic}`,
        );
        callback(null, null);
        return;
      }
      callback(null, subscription);
    },
    // A gateway's wildcard (`roost/v1/{networkId}/#`) also matches its own messages and its
    // retained status: it receives only the commands addressed to it.
    authorizeForward(client, packet) {
      const gateway = gatewayOf.get(client);
      const topic = parseGatewayTopic(packet.topic);
      return gateway &&
        topic?.networkId === gateway.networkId &&
        GATEWAY_SUBSCRIBES.includes(topic.kind)
        ? packet
        : null;
    },
  });
  // A gateway's status says "online" when it connects, possibly before its SUBSCRIBE: a
  // command sent on that news reaches no subscription (a session the broker did not keep, a
  // clean session), so the dispatcher also sends what waits once the gateway subscribed.
  aedes.on('subscribe', (subscriptions, client) => {
    const gateway = client ? gatewayOf.get(client) : undefined;
    if (!gateway) return;
    if (
      subscriptions.some(
        (s) =>
          Number(s.qos) !== SUBACK_REFUSED &&
          subscriptionCommands(gateway.networkId, s.topic) !== null,
      )
    )
      void events?.emit('gatewayListening', gateway.gatewayId);
  });
  // A persistent session the broker kept comes back subscribed without a SUBSCRIBE (it may
  // be a gateway's only sign of life for a while): it listens as soon as it is in. A gateway
  // may subscribe only to its command topics, so a session with subscriptions holds them.
  aedes.on('connackSent', (connack, client) => {
    const gateway = gatewayOf.get(client);
    if (gateway && connack.returnCode === 0 && connack.sessionPresent)
      void events?.emit('gatewayListening', gateway.gatewayId);
  });
  aedes.on('client', (client) => {
    takeOver(client);
    connected.add(client);
  });
  /**
   * One connection per gateway receives its commands: the newest. A gateway that reconnects
   * (a new modem link, a reboot with a new client id) is often in before the broker has
   * noticed that its old connection is dead, up to 1.5 keep-alive periods; refusing it would
   * lock the gateway out meanwhile, and leaving both open sent every command to both. So a
   * new connection takes over from an older one of the same gateway under any client id, as
   * MQTT itself has a new connection take over under the same client id.
   */
  function takeOver(client: Client): void {
    const gateway = gatewayOf.get(client);
    if (!gateway) return;
    for (const other of connected) {
      if (other === client || gatewayOf.get(other)?.networkId !== gateway.networkId) continue;
      pipeline.log.warn(
        { networkId: gateway.networkId, clientId: client.id, previous: other.id },
        'a new connection of the gateway took over from its older one',
      );
      takenOver.add(other);
      other.close();
    }
  }
  aedes.on('clientDisconnect', (client) => {
    connected.delete(client);
    // A clean session ends with its connection; a persistent one stays its gateway's. A
    // connection taken over under the same client id leaves the id to the newer one.
    const owner = owners.get(client.id);
    if (owner?.client !== client) return;
    if (client.clean) owners.delete(client.id);
    else owner.client = null;
  });
  // A rotated token, a deleted or changed gateway: its open session ends now, not only the
  // next sign-in, and it must sign in again with what it holds.
  events?.on('gatewayRevoked', (networkId) => {
    for (const [clientId, owner] of owners)
      if (owner.networkId === networkId) owners.delete(clientId);
    for (const client of connected)
      if (gatewayOf.get(client)?.networkId === networkId) client.close();
  });
  const handle = (socket: Socket) => {
    // PUBACKs are tiny: with Nagle's algorithm each waited ~40 ms for a delayed TCP ACK.
    socket.setNoDelay(true);
    aedes.handle(guardedConnection(socket, MAX_PACKET_BYTES));
  };
  const servers: Server[] = [];
  const close = async () => {
    // aedes first: it ends the clients' sockets, which server.close() would wait for.
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    for (const server of servers)
      await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  try {
    const server: Server = createServer(handle);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    servers.push(server);
    if (tls) {
      const files = new CertificateFiles(tls, pipeline.log);
      servers.push(await listenTls(files, tls.port, tls.host, handle, pipeline.log));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { aedes, port: portOf(servers[0]!), tlsPort: tls ? portOf(servers[1]!) : null, close };
}

function portOf(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

const CLOSED = Symbol('closed');

/**
 * Checks a gateway's token against the database's current state, holding the sign-in while the
 * database cannot answer (`SIGN_IN_HOLD_MS`). A token is never accepted unless checked against
 * what the database holds now (or the directory read within its 30 s), so a rotated or deleted
 * token stays refused through an outage.
 */
async function verifyHeld(
  pipeline: IngestPipeline,
  failures: ThrottledLog,
  client: Client,
  networkId: string,
  token: string,
): Promise<GatewayInfo | null | typeof CLOSED> {
  const giveUpAt = Date.now() + SIGN_IN_HOLD_MS;
  for (;;) {
    try {
      return await pipeline.directory.verifyToken(networkId, token);
    } catch (error) {
      failures.error('signIn', { err: error }, 'sign-in waits for the database');
    }
    if (client.closed) return CLOSED;
    if (Date.now() + SIGN_IN_RETRY_MS > giveUpAt) {
      client.close();
      return CLOSED;
    }
    await new Promise((resolve) => setTimeout(resolve, SIGN_IN_RETRY_MS));
    if (client.closed) return CLOSED;
  }
}
