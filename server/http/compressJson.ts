import type { FastifyReply, FastifyRequest } from 'fastify';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * JSON answers from this size on go out compressed. Below it the bytes saved are not worth a
 * trip to the thread pool; above it they are many: the overview of 20,000 houses with their
 * devices is 21 MB of text and 0.44 MB as Brotli (11 s against 0.2 s on a 15 Mbit/s farm
 * link). On the same host it costs a little (the bench's 11 MB answer at load 6: median 775 ms
 * compressed against 731 ms as text, eight requests each).
 */
export const COMPRESS_FROM_CHARS = 16 * 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/**
 * Brotli quality 2, measured on that 21 MB answer in libuv's pool (not on the event loop):
 * ~60 ms for 0.44 MB; quality 5 took ~110–160 ms for 0.29 MB, the default (11) seconds.
 */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 } };
const GZIP = { level: 6 };

type Encoding = 'br' | 'gzip';

/** The encoding the client accepts that we prefer (br, then gzip), or null (q=0 refuses one). */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  const accepted = new Set<string>();
  for (const part of [header ?? ''].flat().join(',').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * An `onSend` hook: a large JSON answer is compressed for a client that accepts it, with
 * `Vary: Accept-Encoding`. Static files come precompressed (staticConsole.ts) and already carry
 * their encoding; downloads are streams, not strings, and go as they are.
 */
export async function compressJson(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (typeof payload !== 'string' || payload.length < COMPRESS_FROM_CHARS) return payload;
  if (reply.hasHeader('content-encoding')) return payload;
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
  const encoding = acceptedEncoding(request.headers['accept-encoding']);
  const vary = reply.getHeader('vary');
  reply.header('Vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  if (!encoding) return payload;
  const body = encoding === 'br' ? await brotli(payload, BROTLI) : await gzip(payload, GZIP);
  reply.header('Content-Encoding', encoding);
  reply.removeHeader('content-length');
  return body;
}
