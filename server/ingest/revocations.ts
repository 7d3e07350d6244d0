import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { createClient } from 'redis';
import type { ServerEvents } from '../events';
import type { GatewayDirectory } from './gatewayDirectory';

/** The Redis channel every Roost process of one deployment hears revoked gateways on. */
export const REVOKED_CHANNEL = 'roost:gateway-revoked';

interface RevokedMessage {
  /** The process that revoked it: it does not hear its own message again. */
  from: string;
  networkId: string;
}

/**
 * Shares revoked gateways (a rotated token, a changed or deleted gateway) between the Roost
 * processes of one deployment: each caches gateways for 30 s, so without this another process
 * would still admit the old token until its entry expired. The revoking request waits until
 * Redis has taken the message, so its answer comes after every process could hear it.
 */
export async function shareRevocations(options: {
  redisUrl: string;
  events: ServerEvents;
  directory: GatewayDirectory;
  log: FastifyBaseLogger;
}): Promise<{ close(): Promise<void> }> {
  const { events, directory, log } = options;
  const self = randomUUID();
  const pub = createClient({ url: options.redisUrl });
  const sub = pub.duplicate();
  for (const client of [pub, sub])
    client.on('error', (error: Error) => log.warn({ err: error }, 'redis (revocations) error'));
  await Promise.all([pub.connect(), sub.connect()]);
  /** Revocations heard from another process, being passed on here: not sent back out. */
  const relaying = new Map<string, number>();
  await sub.subscribe(REVOKED_CHANNEL, (raw) => {
    let message: RevokedMessage;
    try {
      message = JSON.parse(raw) as RevokedMessage;
    } catch {
      return;
    }
    if (message.from === self || typeof message.networkId !== 'string') return;
    const { networkId } = message;
    directory.forget(networkId);
    // Sessions this process's embedded broker holds for the gateway end too.
    relaying.set(networkId, (relaying.get(networkId) ?? 0) + 1);
    void events.emit('gatewayRevoked', networkId).finally(() => {
      const left = (relaying.get(networkId) ?? 1) - 1;
      if (left > 0) relaying.set(networkId, left);
      else relaying.delete(networkId);
    });
  });
  const stop = events.on('gatewayRevoked', async (networkId) => {
    if (relaying.has(networkId)) return;
    const message: RevokedMessage = { from: self, networkId };
    await pub.publish(REVOKED_CHANNEL, JSON.stringify(message));
  });
  return {
    async close() {
      stop();
      await Promise.allSettled([sub.quit(), pub.quit()]);
    },
  };
}
