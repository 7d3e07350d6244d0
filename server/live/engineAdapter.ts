import type { Socket } from 'socket.io';

/**
 * The one place that reads engine.io's private state (its typings keep both members private):
 * what a socket's link still holds of what was sent before. tests/server/engineAdapter.test.ts
 * runs it on a real server and client, so a release that renames or drops either member fails
 * there rather than silently making every link look free.
 */

/** What one socket's link holds now. */
export interface LinkBacklog {
  /** Bytes the WebSocket holds that the kernel has not taken (0 on long-polling). */
  bufferedBytes: number;
  /** Packets engine.io holds for the transport (a long-poll not yet asked again). */
  queuedPackets: number;
}

interface EngineInternals {
  transport?: { name?: string; socket?: { bufferedAmount?: unknown } };
  writeBuffer?: unknown;
}

/**
 * The link's backlog, or null when engine.io no longer keeps it where this looks (the test's
 * alarm; the hub then treats the link as free, as before this check existed).
 */
export function linkBacklog(socket: Socket): LinkBacklog | null {
  const conn = socket.conn as unknown as EngineInternals;
  if (!Array.isArray(conn.writeBuffer) || !conn.transport) return null;
  let bufferedBytes = 0;
  if (conn.transport.name === 'websocket') {
    const buffered = conn.transport.socket?.bufferedAmount;
    if (typeof buffered !== 'number') return null;
    bufferedBytes = buffered;
  }
  return { bufferedBytes, queuedPackets: conn.writeBuffer.length };
}
