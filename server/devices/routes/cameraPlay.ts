import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../http/envelope';
import { Refusal } from '../../refusal';
import type { DeviceContext } from '../access';
import { readCameras } from '../cameras';

/** A media gateway that has not answered in this long counts as unreachable. */
const UPSTREAM_TIMEOUT_MS = 5_000;
/** A playlist or segment name: no scheme, no way out of the camera's folder. */
const FILE = /^(?!.*\.\.)[A-Za-z0-9._\-/]{1,200}$/;

const playParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  '*': z.string().regex(FILE, { message: 'devices.badStreamFile' }),
});

/**
 * The camera's HLS stream, relayed from its media gateway: the browser only ever talks to
 * Roost (the console's Content-Security-Policy allows no other host), the gateway may sit on
 * the farm's private network, and only a user who may see the house now gets the video.
 * `/camera/play/{id}/{file}` fetches `{file}` beside the camera's playlist address, so the
 * playlist's relative segment names come back through here too.
 */
export function cameraPlayRoutes(dc: DeviceContext, mediaUrl: string | null): FastifyPluginAsync {
  const { database, scopeFor } = dc;
  return async (app) => {
    app.get('/camera/play/:id/*', async (request, reply) => {
      const { id, '*': file } = parseInput(playParamsSchema, request.params);
      const scope = await scopeFor(request);
      const [camera] = await readCameras(database, scope, { id }, mediaUrl);
      if (!camera) throw new Refusal('notFound', 'devices.notFound');
      if (!camera.playUrl) throw new Refusal('conflict', 'devices.noStream');
      const target = new URL(file, camera.playUrl);
      const query = request.url.indexOf('?');
      if (query >= 0) target.search = request.url.slice(query);
      let upstream: Response;
      try {
        upstream = await fetch(target, { signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });
      } catch {
        throw new Refusal('unprocessable', 'devices.streamUnreachable');
      }
      if (!upstream.ok) {
        await upstream.arrayBuffer().catch(() => undefined);
        throw new Refusal('unprocessable', 'devices.streamUnreachable');
      }
      const body = Buffer.from(await upstream.arrayBuffer());
      return reply
        .header('content-type', upstream.headers.get('content-type') ?? 'application/octet-stream')
        .header('cache-control', 'no-store')
        .send(body);
    });
  };
}
