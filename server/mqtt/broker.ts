import { createServer, type Server } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { gateways } from '../db/schema';
import { hashToken } from '../auth/tokens';
import { GATEWAY_PUBLISHES, gatewayTopic, parseGatewayTopic } from './topics';

/** A socket that has not sent CONNECT within 10 s is closed (RELIABILITY.md). */
const CONNECT_TIMEOUT_MS = 10_000;
/** aedes' return code 4: bad user name or password. */
const BAD_USERNAME_OR_PASSWORD = 4;

export interface EmbeddedBroker {
  aedes: Aedes;
  port: number;
  close(): Promise<void>;
}

/** Network id of an authenticated gateway client, kept on the client object. */
const gatewayOf = new WeakMap<Client, string>();

/**
 * The embedded MQTT broker. Gateways sign in with user name = network id and password = their
 * device token; each may only publish and subscribe under its own topics.
 */
export async function startEmbeddedBroker(
  db: Db,
  port: number,
  host: string,
): Promise<EmbeddedBroker> {
  const aedes = await Aedes.createBroker({
    connectTimeout: CONNECT_TIMEOUT_MS,
    authenticate(client, username, password, done) {
      authenticateGateway(db, username, password).then(
        (ok) => {
          if (ok && username) {
            gatewayOf.set(client, username);
            done(null, true);
          } else {
            const error = new Error('bad network id or device token') as AuthenticateError;
            error.returnCode = BAD_USERNAME_OR_PASSWORD;
            done(error, false);
          }
        },
        () =>
          done(
            Object.assign(new Error('authentication unavailable'), {
              returnCode: 3,
            }) as AuthenticateError,
            false,
          ),
      );
    },
    authorizePublish(client, packet, callback) {
      const networkId = client ? gatewayOf.get(client) : undefined;
      const topic = parseGatewayTopic(packet.topic);
      if (
        !networkId ||
        !topic ||
        topic.networkId !== networkId ||
        !GATEWAY_PUBLISHES.includes(topic.kind)
      ) {
        callback(new Error('topic not allowed'));
        return;
      }
      callback(null);
    },
    authorizeSubscribe(client, subscription, callback) {
      const networkId = gatewayOf.get(client);
      if (!networkId || subscription.topic !== gatewayTopic(networkId, 'config/set')) {
        callback(new Error('subscription not allowed'));
        return;
      }
      callback(null, subscription);
    },
  });
  const server: Server = createServer(aedes.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    aedes,
    port: boundPort,
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function authenticateGateway(
  db: Db,
  networkId: string | undefined,
  password: Buffer | undefined,
): Promise<boolean> {
  if (!networkId || !password || networkId.length > 64) return false;
  const [row] = await db
    .select({ tokenHash: gateways.tokenHash })
    .from(gateways)
    .where(eq(gateways.networkId, networkId))
    .limit(1);
  const presented = Buffer.from(hashToken(password.toString('utf8')), 'hex');
  // Compare against a dummy for unknown gateways so timing tells nothing.
  const expected = row ? Buffer.from(row.tokenHash, 'hex') : Buffer.alloc(presented.length);
  return (
    expected.length === presented.length &&
    timingSafeEqual(expected, presented) &&
    row !== undefined
  );
}
