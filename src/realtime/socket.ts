import { io, type Socket } from 'socket.io-client';
import { type ClientToServerEvents, type ServerToClientEvents } from '../contract/live';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Socket.IO's own reconnection backs off up to this delay between tries. */
const RECONNECT_DELAY_MAX_MS = 5_000;

/** Makes the live connection's socket (not yet connected) from the session token's getter. */
export type LiveSocketFactory = (token: () => string | undefined) => LiveSocket;

/**
 * The console's one socket: same origin unless `url` names a server (a test's, on its own
 * port), the session token in the handshake (read on every reconnect, so a new token is used),
 * and Socket.IO's own reconnection.
 */
export function createLiveSocket(token: () => string | undefined, url?: string): LiveSocket {
  const options = {
    auth: (callback: (data: object) => void) => callback({ token: token() ?? '' }),
    autoConnect: false,
    reconnectionDelayMax: RECONNECT_DELAY_MAX_MS,
  } satisfies Parameters<typeof io>[1];
  return url === undefined ? io(options) : io(url, options);
}
