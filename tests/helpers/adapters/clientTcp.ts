import type { Socket as NetSocket } from 'node:net';
import type { Socket } from 'socket.io-client';

/**
 * The TCP connection under a socket.io client's WebSocket (Node's `ws`, which keeps it as a
 * private member): pausing it is how a test makes a browser that stops reading. Throws when the
 * libraries no longer keep it there, so the tests that use it fail rather than test nothing.
 */
export function tcpOf(socket: Socket): NetSocket {
  const engine = socket.io.engine as unknown as { transport?: { ws?: { _socket?: NetSocket } } };
  const tcp = engine.transport?.ws?._socket;
  if (!tcp || typeof tcp.pause !== 'function')
    throw new Error('socket.io-client no longer keeps its TCP socket at transport.ws._socket');
  return tcp;
}
