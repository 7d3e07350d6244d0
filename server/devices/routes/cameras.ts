import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  cameraInputSchema,
  cameraListQuerySchema,
  cameraListSchema,
  cameraSchema,
  cameraUpdateSchema,
} from '../../../src/contract/cameras';
import { deletedSchema, idBodySchema } from '../../../src/contract/devices';
import { cameras } from '../../db/devicesSchema';
import { farms, houses } from '../../db/schema';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin, bodyOrQuery } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { isUniqueViolation, violatedIndex, type DeviceContext } from '../access';
import { onMediaGateway, readCameras } from '../cameras';
import type { SecretBox } from '../secrets';

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
): RoutePlugin {
  const { database, scopeFor, houseIn, log } = dc;
  return async (app) => {
    app.get(
      '/camera/list',
      {
        schema: {
          summary: 'The cameras of the houses in scope, with the address the console plays',
          querystring: cameraListQuerySchema,
          response: answers(cameraListSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        if (q.houseId !== undefined) await houseIn(scope, q.houseId);
        const rows = await readCameras(database, scope, q, mediaUrl);
        return ok(request, reply, { rows, total: rows.length });
      },
    );

    const save = async (
      request: FastifyRequest,
      v: z.output<typeof cameraInputSchema>,
      id: number | null,
    ) => {
      if (onMediaGateway(v.streamUrl, mediaUrl))
        throw new Refusal('unprocessable', 'devices.streamOnGateway');
      const scope = await scopeFor(request);
      const house = await houseIn(scope, v.houseId);
      if (id !== null && (await readCameras(database, scope, { id }, mediaUrl)).length === 0)
        throw new Refusal('notFound', 'devices.notFound');
      const [{ orgId } = { orgId: 0 }] = await database.db
        .select({ orgId: farms.orgId })
        .from(houses)
        .innerJoin(farms, eq(farms.id, houses.farmId))
        .where(eq(houses.id, v.houseId));
      const values = {
        orgId,
        houseId: v.houseId,
        name: v.name,
        code: v.code,
        channel: v.channel,
        vendor: v.vendor,
        streamUrl: v.streamUrl,
        userNameSecret: box.seal(v.userName),
        // A password or verify code left out of an edit keeps the stored one.
        ...(v.password !== undefined || id === null
          ? { passwordSecret: box.seal(v.password ?? '') }
          : {}),
        ...(v.verifyCode !== undefined || id === null
          ? { verifyCodeSecret: box.seal(v.vendor === 'hikvision' ? (v.verifyCode ?? '') : '') }
          : {}),
      };
      let saved: { id: number } | undefined;
      try {
        [saved] =
          id === null
            ? await database.db.insert(cameras).values(values).returning({ id: cameras.id })
            : await database.db
                .update(cameras)
                .set(values)
                .where(eq(cameras.id, id))
                .returning({ id: cameras.id });
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

    app.post(
      '/camera/create',
      {
        schema: {
          summary: 'Adds a camera to a house (its credentials are stored sealed, never answered)',
          body: cameraInputSchema,
          response: answers(cameraSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await save(request, request.body, null), 'devices.saved'),
    );
    app.put(
      '/camera/update',
      {
        schema: {
          summary: 'Changes a camera; a password or verify code left out keeps the stored one',
          body: cameraUpdateSchema,
          response: answers(cameraSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await save(request, request.body, request.body.id), 'devices.saved'),
    );

    app.delete(
      '/camera/delete',
      {
        schema: {
          summary: 'Deletes a camera; answers how many its house has left',
          body: idBodySchema,
          response: answers(deletedSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
        preValidation: bodyOrQuery,
      },
      async (request, reply) => {
        const { id } = request.body;
        const scope = await scopeFor(request);
        const [entry] = await readCameras(database, scope, { id }, mediaUrl);
        if (!entry) throw new Refusal('notFound', 'devices.notFound');
        await database.db.delete(cameras).where(eq(cameras.id, id));
        await log(request, 'camera.delete', entry.name, {
          id: entry.houseId,
          name: entry.houseName,
        });
        const remaining = (await readCameras(database, scope, { houseId: entry.houseId }, mediaUrl))
          .length;
        return ok(request, reply, { remaining }, 'devices.deleted');
      },
    );
  };
}
