import { pipeline } from 'node:stream';
import { z } from 'zod';
import { idSchema } from '../../../src/contract/ids';
import { ANY_ROLE, fileAnswer, type RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import type { DeviceContext } from '../access';
import { onMediaGateway, readCameras } from '../cameras';
import { MediaAddressRefused, type MediaAddressRule } from '../mediaAddress';
import { byteCap, MediaUnreachable, openMedia } from '../mediaFetch';

/**
 * Size caps, so one answer cannot take the server's memory or bandwidth: a live HLS playlist is
 * a few KB (even a long event playlist stays far below 1 MB); a segment of 2–6 s is 1–5 MB, and
 * about 19 MB for 6 s at 25 Mbit/s (4K), the most a farm camera sends.
 */
const PLAYLIST_MAX_BYTES = 1024 * 1024;
const SEGMENT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * A file in the camera's folder: plain names joined by `/`, none starting with a dot (so no `.`
 * or `..`), no percent-encoding, backslash, colon, `;` or `@`: nothing a URL parser could read
 * as another folder, host or scheme. Checked on the raw request path, before any decoding.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,119}$/;
/** LL-HLS asks with `_HLS_msn=…&_HLS_part=…`; nothing else is passed on. */
const QUERY = /^[A-Za-z0-9._~=&-]{0,300}$/;

/**
 * The camera; the file part (`*`) is read from the raw path by `playFileOf`, never from the
 * decoded parameter, so the schema leaves it out.
 */
const playParamsSchema = z.object({ id: idSchema });

/** What a camera's HLS stream is made of: playlists, MPEG-TS or fMP4 segments (or bytes unnamed). */
const HLS_MEDIA_TYPES = [
  'application/vnd.apple.mpegurl',
  'video/mp2t',
  'video/mp4',
  'application/octet-stream',
] as const;

/**
 * Why the media gateway gave no stream, as the console's "No video" reason needs it (it reads
 * the status): the gateway answered that it has no such stream (404, a wrong stream path or a
 * camera not pushing), refused Roost (401/403: it wants a login the relay does not send, or denies Roost's address), or did not answer at all.
 */
function refusalOfUpstream(error: unknown): Refusal {
  const status = error instanceof MediaUnreachable ? error.status : null;
  if (status === 404 || status === 410) return new Refusal('notFound', 'devices.streamNotFound');
  if (status === 401 || status === 403)
    return new Refusal('forbidden', 'devices.streamAuthRefused');
  return new Refusal('unprocessable', 'devices.streamUnreachable');
}

/** The file part and query of `/…/camera/play/{id}/{file}?{query}`; null if not a plain file. */
export function playFileOf(rawUrl: string): { file: string; query: string } | null {
  const at = rawUrl.indexOf('?');
  const path = at < 0 ? rawUrl : rawUrl.slice(0, at);
  const query = at < 0 ? '' : rawUrl.slice(at + 1);
  const file = /\/camera\/play\/[^/]+\/(.*)$/.exec(path)?.[1];
  if (file === undefined || file.length > 200 || !QUERY.test(query)) return null;
  const parts = file.split('/');
  return parts.length <= 8 && parts.every((p) => SEGMENT.test(p)) ? { file, query } : null;
}

/**
 * The camera's HLS stream, relayed from its media gateway: the browser only ever talks to
 * Roost (the console's Content-Security-Policy allows no other host), the gateway may sit on
 * the farm's private network, and only a user who may see the house now gets the video.
 * `/camera/play/{id}/{file}` fetches `{file}` in the folder of the camera's playlist address
 * (never elsewhere), so the playlist's relative segment names come back through here too. The
 * body is streamed with a size cap, and the upstream is dropped when the client goes away.
 */
export function cameraPlayRoutes(
  dc: DeviceContext,
  mediaUrl: string | null,
  rule: MediaAddressRule,
): RoutePlugin {
  const { database, scopeFor } = dc;
  return async (app) => {
    app.get(
      '/camera/play/:id/*',
      {
        schema: {
          summary:
            "A file of a camera's live HLS stream (its playlist or a segment), relayed from the media gateway",
          params: playParamsSchema,
          response: fileAnswer(HLS_MEDIA_TYPES, 'The playlist or segment, as the gateway sent it'),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { id } = request.params;
        const wanted = playFileOf(request.url);
        if (!wanted) throw new Refusal('invalid', 'devices.badStreamFile');
        const scope = await scopeFor(request);
        const [camera] = await readCameras(database, scope, { id }, mediaUrl);
        if (!camera) throw new Refusal('notFound', 'devices.notFound');
        if (!camera.playUrl) throw new Refusal('conflict', 'devices.noStream');
        // A row saved before this rule may still name the gateway in its own address.
        const ownAddress = camera.streamUrl !== '';
        if (ownAddress && onMediaGateway(camera.streamUrl, mediaUrl))
          throw new Refusal('unprocessable', 'devices.streamOnGateway');
        const folder = new URL('.', camera.playUrl);
        const target = new URL(wanted.file, folder);
        if (!target.href.startsWith(folder.href))
          throw new Refusal('invalid', 'devices.badStreamFile');
        if (wanted.query) target.search = wanted.query;

        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        let upstream;
        try {
          upstream = await openMedia(
            target,
            rule,
            gone.signal,
            (hop) => ownAddress && onMediaGateway(hop, mediaUrl),
          );
        } catch (error) {
          if (error instanceof MediaAddressRefused)
            throw new Refusal('unprocessable', 'devices.streamForbidden');
          throw refusalOfUpstream(error);
        }
        const max = /\.m3u8$/i.test(wanted.file) ? PLAYLIST_MAX_BYTES : SEGMENT_MAX_BYTES;
        const declared = Number(upstream.headers['content-length'] ?? NaN);
        if (declared > max) {
          upstream.destroy();
          throw new Refusal('unprocessable', 'devices.streamUnreachable');
        }
        // Once bytes are sent, a failure (stall, over the cap) can only cut the connection.
        const body = pipeline(upstream, byteCap(max), () => undefined);
        reply
          .header('content-type', upstream.headers['content-type'] ?? 'application/octet-stream')
          .header('cache-control', 'no-store');
        if (Number.isFinite(declared)) reply.header('content-length', declared);
        return reply.send(body);
      },
    );
  };
}
