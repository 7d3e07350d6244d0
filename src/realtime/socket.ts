import { io, type Socket } from 'socket.io-client';
import { type ClientToServerEvents, type ServerToClientEvents } from '../contract/live';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Socket.IO's own reconnection backs off up to this delay between tries. */
const RECONNECT_DELAY_MAX_MS = 5_000;

/**
 * The console's one socket: same origin, the session token in the handshake
 * (read on every reconnect, so a new token is used), and Socket.IO's own reconnection.
 */
export function createLiveSocket(token: () => string | undefined): LiveSocket {
  return io({
    auth: (callback) => callback({ token: token() ?? '' }),
    autoConnect: false,
    reconnectionDelayMax: RECONNECT_DELAY_MAX_MS,
  });
}
