import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { MediaAddressRefused, type MediaAddressRule, type ResolvedAddress } from './mediaAddress';

/** A media gateway that has not answered (connected and sent its headers) in this long is unreachable. */
const HEADERS_TIMEOUT_MS = 5_000;
/** A body that sends nothing for this long has stalled: the answer is cut. */
const STALL_TIMEOUT_MS = 5_000;
/** Each hop is checked again; a gateway needs one or two (http → https, a login-free alias). */
const MAX_REDIRECTS = 3;

/**
 * The upstream did not give a usable answer (connect, headers, status, size); `status` is the
 * HTTP status where the gateway did answer, so a missing stream or a refused login can be told
 * apart from a gateway that is down.
 */
export class MediaUnreachable extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** Connects to the address that was checked, never to what a second lookup might return. */
function pinned({ address, family }: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function requestOnce(url: URL, to: ResolvedAddress, signal: AbortSignal) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      lookup: pinned(to),
      agent: false,
      signal,
      headers: { accept: '*/*' },
    });
    const deadline = setTimeout(
      () => request.destroy(new MediaUnreachable('no headers in time')),
      HEADERS_TIMEOUT_MS,
    );
    request.setTimeout(STALL_TIMEOUT_MS, () => request.destroy(new MediaUnreachable('stalled')));
    request.once('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.once('response', (response) => {
      clearTimeout(deadline);
      // A body error after this point reaches the response stream (the relay cuts its answer).
      request.on('error', () => undefined);
      resolve(response);
    });
    request.end();
  });
}

/**
 * Opens `url` for streaming: every hop's address is checked by `rule` (MediaAddressRefused) and
 * redirects are followed here, at most MAX_REDIRECTS. Any other failure is MediaUnreachable or
 * a network error; `signal` (the client went away) aborts the upstream at any stage. A hop for
 * which `refused` is true (a camera's own address redirected to the media gateway, where it
 * could name another camera's folder) is MediaAddressRefused too.
 */
export async function openMedia(
  start: URL,
  rule: MediaAddressRule,
  signal: AbortSignal,
  refused: (url: URL) => boolean = () => false,
): Promise<IncomingMessage> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new MediaUnreachable('not http');
    if (refused(url)) throw new MediaAddressRefused(url.host);
    const response = await requestOnce(url, await rule.resolve(url), signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.destroy();
      url = new URL(location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.destroy();
      throw new MediaUnreachable(`status ${status}`, status);
    }
    return response;
  }
  throw new MediaUnreachable('too many redirects');
}

/** Passes at most `max` bytes; one more ends the stream with an error (the answer is cut). */
export function byteCap(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) done(new MediaUnreachable('over the size cap'));
      else done(null, chunk);
    },
  });
}
