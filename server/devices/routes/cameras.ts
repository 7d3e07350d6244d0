import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  cameraInputSchema,
  cameraListQuerySchema,
  cameraUpdateSchema,
} from '../../../src/contract/cameras';
import { idBodySchema } from '../../../src/contract/devices';
import { ok, parseInput } from '../../http/envelope';
import { Refusal } from '../../refusal';
import { isUniqueViolation, violatedIndex, type DeviceContext } from '../access';
import { onMediaGateway, readCameras } from '../cameras';
import type { SecretBox } from '../secrets';
import { OPERATING } from '../../auth/operate';

/**
 * Cameras of the houses in scope. A name is unique within its house ("Name existed"), a code
 * across the installation (it names the camera's folder on the media gateway), and a camera's
 * own address may not be on the gateway's origin (it reaches the gateway only by its code);
 * the credentials are sealed before they reach the database and never answered.
 */
export function cameraRoutes(
  dc: DeviceContext,
  box: SecretBox,
  mediaUrl: string | null,
): FastifyPluginAsync {
  const { database, scopeFor, houseIn, log } = dc;
  return async (app) => {
    app.get('/camera/list', async (request, reply) => {
      const q = parseInput(cameraListQuerySchema, request.query);
      const scope = await scopeFor(request);
      if (q.houseId !== undefined) await houseIn(scope, q.houseId);
      const rows = await readCameras(database, scope, q, mediaUrl);
      return ok(request, reply, { rows, total: rows.length });
    });

    const save = async (request: FastifyRequest, id: number | null) => {
      const v =
        id === null
          ? parseInput(cameraInputSchema, request.body)
          : parseInput(cameraUpdateSchema, request.body);
      if (onMediaGateway(v.streamUrl, mediaUrl))
        throw new Refusal('unprocessable', 'devices.streamOnGateway');
      const scope = await scopeFor(request);
      const house = await houseIn(scope, v.houseId);
      if (id !== null && (await readCameras(database, scope, { id }, mediaUrl)).length === 0)
        throw new Refusal('notFound', 'devices.notFound');
      const [{ orgId } = { orgId: 0 }] = await database.query<{ orgId: number }>(
        `select f.org_id as "orgId" from houses h join farms f on f.id = h.farm_id where h.id = $1`,
        [v.houseId],
      );
      const values: unknown[] = [
        orgId,
        v.houseId,
        v.name,
        v.code,
        v.channel,
        v.vendor,
        v.streamUrl,
        box.seal(v.userName),
      ];
      // A password or verify code left out of an edit keeps the stored one.
      const secretCols = ['user_name_secret'];
      if (v.password !== undefined || id === null) {
        secretCols.push('password_secret');
        values.push(box.seal(v.password ?? ''));
      }
      if (v.verifyCode !== undefined || id === null) {
        secretCols.push('verify_code_secret');
        values.push(box.seal(v.vendor === 'hikvision' ? (v.verifyCode ?? '') : ''));
      }
      const cols = ['org_id', 'house_id', 'name', 'code', 'channel', 'vendor', 'stream_url'];
      const all = [...cols, ...secretCols];
      const marks = all.map((_c, i) => `$${i + 1}`).join(',');
      let saved: { id: number } | undefined;
      try {
        [saved] =
          id === null
            ? await database.query<{ id: number }>(
                `insert into cameras (${all.join(',')}) values (${marks}) returning id`,
                values,
              )
            : await database.query<{ id: number }>(
                `update cameras set (${all.join(',')}) = (${marks}) where id = $${values.length + 1} returning id`,
                [...values, id],
              );
      } catch (error) {
        if (isUniqueViolation(error))
          throw new Refusal(
            'conflict',
            violatedIndex(error) === 'cameras_code_uniq'
              ? 'devices.cameraCodeInUse'
              : 'devices.nameExisted',
          );
        throw error;
      }
      if (!saved) throw new Refusal('notFound', 'devices.notFound');
      await log(request, id === null ? 'camera.create' : 'camera.update', v.name, house);
      const [row] = await readCameras(database, scope, { id: saved.id }, mediaUrl);
      return row;
    };

    app.post('/camera/create', OPERATING, async (request, reply) =>
      ok(request, reply, await save(request, null), 'devices.saved'),
    );
    app.put('/camera/update', OPERATING, async (request, reply) => {
      const { id } = parseInput(idBodySchema, request.body);
      return ok(request, reply, await save(request, id), 'devices.saved');
    });

    app.delete('/camera/delete', OPERATING, async (request, reply) => {
      const { id } = parseInput(idBodySchema, request.body ?? request.query);
      const scope = await scopeFor(request);
      const [entry] = await readCameras(database, scope, { id }, mediaUrl);
      if (!entry) throw new Refusal('notFound', 'devices.notFound');
      await database.query('delete from cameras where id = $1', [id]);
      await log(request, 'camera.delete', entry.name, { id: entry.houseId, name: entry.houseName });
      const remaining = (await readCameras(database, scope, { houseId: entry.houseId }, mediaUrl))
        .length;
      return ok(request, reply, { remaining }, 'devices.deleted');
    });
  };
}
