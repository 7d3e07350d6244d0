import type { IncomingMessage } from 'node:http';

/* What is left of a refused upload is read and dropped, so the client gets its answer. */

/**
 * After a 413 the rest of an oversized upload is read and dropped up to this much: a keep-alive
 * client's next request then finds the connection ready. A body larger still is not read
 * for ever; its answer says `Connection: close`, so the client opens a new connection.
 */
export const DRAIN_AFTER_413_BYTES = 16 * 1024 * 1024;

/** Reads what is left of a request body, dropped; false when more than `limit` bytes remain. */
export function drainRequest(raw: IncomingMessage, limit: number): Promise<boolean> {
  if (raw.complete) return Promise.resolve(true);
  return new Promise((resolve) => {
    let read = 0;
    const done = (drained: boolean) => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      if (!drained) raw.pause();
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(raw.complete);
    // The multipart parser stopped at the limit: the body is taken from it and read here.
    raw.unpipe();
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('close', onClose);
    raw.resume();
  });
}

/** Reads a refused file's stream to its end, so the request completes and is answered. */
export async function discard(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const chunk of stream) void chunk;
}
