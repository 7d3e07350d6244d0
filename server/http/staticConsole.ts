import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The console's Content-Security-Policy: no inline scripts, so injected markup cannot run. Inline styles stay
 * allowed because Blueprint positions popovers with style attributes; workers come from blob:
 * for the map.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  // 'self' covers this host's ws: and wss: too; "ws: wss:" let a script talk to any host.
  "connect-src 'self'",
  "worker-src 'self' blob:",
  // Camera live view: hls.js feeds the video element a blob: Media Source; the stream itself
  // comes through Roost (/api/camera/play), so connect-src stays this site only.
  "media-src 'self' blob:",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'self'",
].join('; ');

/** Serves the built console from `dist/`; any other non-/api GET gets index.html (history routing). */
export async function registerConsole(
  app: FastifyInstance,
  staticDir: string,
): Promise<{ sendIndex: (reply: FastifyReply) => FastifyReply }> {
  const built = existsSync(path.join(staticDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: staticDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies (scripts/precompress.ts): the smallest one the
      // browser accepts goes out, with Vary: Accept-Encoding. Measured (bench transfer): a cold
      // /login fell from 802 to 229 KiB of JS and 465 to 35 KiB of CSS; on slow 4G with a 4×
      // slower CPU the overview's first card came after 3.8 s instead of 9.2 s.
      preCompressed: true,
      setHeaders(res, filePath) {
        // Vite fingerprints everything under assets/: it can be cached for good.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  return {
    sendIndex(reply) {
      if (!built) {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The console is not built yet: run `npm run build` (npm start does it for you).');
      }
      return reply
        .header('Cache-Control', 'no-cache')
        .header('Content-Security-Policy', CSP)
        .sendFile('index.html', { cacheControl: false });
    },
  };
}
