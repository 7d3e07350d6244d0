import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real media gateway on 127.0.0.1 for the relay's tests: every request it saw is recorded. */
export interface MediaServer {
  server: Server;
  port: number;
  url: string;
  seen: string[];
  /** Bytes the last streamed body wrote before it ended or its client went away. */
  streamed: { bytes: number; closed: boolean };
  /** Where `hop.m3u8` redirects to. */
  redirect: { to: string };
  close(): Promise<void>;
}

const MB = 1024 * 1024;

/** Writes `total` bytes made on the fly, honouring back-pressure, until done or the client leaves. */
function generate(res: ServerResponse, total: number, state: MediaServer['streamed']) {
  const chunk = Buffer.alloc(64 * 1024, 7);
  state.bytes = 0;
  state.closed = false;
  res.on('close', () => (state.closed = true));
  const pump = () => {
    while (state.bytes < total && !state.closed) {
      state.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!state.closed) res.end();
  };
  pump();
}

/**
 * `/<folder>/index.m3u8` answers `#EXTM3U <folder>` (each folder its own content); special files:
 * `big.ts` (500 MB, chunked), `declared.ts` (500 MB announced), `slowhead.m3u8` (headers after
 * 6 s), `stall.ts` (some bytes, then nothing for 6 s), `hop.m3u8` (a redirect to `redirect.to`),
 * `missing.m3u8` (404) and `locked.m3u8` (401).
 */
export async function startMediaServer(): Promise<MediaServer> {
  const state = { bytes: 0, closed: false };
  const seen: string[] = [];
  const redirect = { to: '/' };
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    seen.push(url);
    const path = url.split('?')[0]!;
    const file = path.slice(path.lastIndexOf('/') + 1);
    if (file === 'big.ts') {
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      return generate(res, 500 * MB, state);
    }
    if (file === 'declared.ts') {
      res.writeHead(200, { 'content-type': 'video/mp2t', 'content-length': String(500 * MB) });
      return generate(res, 500 * MB, state);
    }
    if (file === 'slowhead.m3u8') {
      const timer = setTimeout(() => res.writeHead(200).end('#EXTM3U\n'), 6_000);
      return void res.on('close', () => clearTimeout(timer));
    }
    if (file === 'stall.ts') {
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      res.write(Buffer.alloc(1000, 1));
      const timer = setTimeout(() => res.end(), 6_000);
      return void res.on('close', () => clearTimeout(timer));
    }
    if (file === 'hop.m3u8') return void res.writeHead(302, { location: redirect.to }).end();
    // A stream path the gateway does not have, and one it wants a login for.
    if (file === 'missing.m3u8') return void res.writeHead(404).end('stream not found');
    if (file === 'locked.m3u8') return void res.writeHead(401).end('unauthorized');
    const folder = path.slice(0, path.lastIndexOf('/'));
    res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
    res.end(`#EXTM3U ${folder} ${file}\n`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    seen,
    streamed: state,
    redirect,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
