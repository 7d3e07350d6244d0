import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  concentratorInputSchema,
  concentratorListSchema,
  concentratorSchema,
  concentratorUpdateSchema,
  deletedSchema,
  deviceListQuerySchema,
  idBodySchema,
} from '../../../src/contract/devices';
import { concentrators } from '../../db/devicesSchema';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin, bodyOrQuery } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { isUniqueViolation, type DeviceContext } from '../access';
import { readConcentrators } from '../equipment';

/** Concentrators of the houses in scope: list with search, create, edit, delete. */
export function concentratorRoutes(dc: DeviceContext): RoutePlugin {
  const { database, scopeFor, houseIn, log } = dc;
  return async (app) => {
    app.get(
      '/concentrator/list',
      {
        schema: {
          summary: 'The concentrators of the houses in scope, found by name, code or model',
          querystring: deviceListQuerySchema,
          response: answers(concentratorListSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        if (q.houseId !== undefined) await houseIn(scope, q.houseId);
        const rows = await readConcentrators(database, scope, q);
        return ok(request, reply, { rows, total: rows.length });
      },
    );

    const save = async (
      request: FastifyRequest,
      v: z.output<typeof concentratorInputSchema>,
      id: number | null,
    ) => {
      const scope = await scopeFor(request);
      const house = await houseIn(scope, v.houseId);
      if (id !== null && (await readConcentrators(database, scope, { id })).length === 0)
        throw new Refusal('notFound', 'devices.notFound');
      const values = {
        houseId: v.houseId,
        type: v.type,
        code: v.code,
        name: v.name,
        model: v.model,
        address: v.address,
        version: v.version,
      };
      let saved: { id: number } | undefined;
      try {
        [saved] =
          id === null
            ? await database.db
                .insert(concentrators)
                .values(values)
                .returning({ id: concentrators.id })
            : await database.db
                .update(concentrators)
                .set(values)
                .where(eq(concentrators.id, id))
                .returning({ id: concentrators.id });
      } catch (error) {
        if (isUniqueViolation(error)) throw new Refusal('conflict', 'devices.codeTaken');
        throw error;
      }
      if (!saved) throw new Refusal('notFound', 'devices.notFound');
      await log(
        request,
        id === null ? 'concentrator.create' : 'concentrator.update',
        v.name,
        house,
      );
      const [row] = await readConcentrators(database, scope, { id: saved.id });
      return row;
    };

    app.post(
      '/concentrator/create',
      {
        schema: {
          summary: 'Adds a concentrator to a house',
          body: concentratorInputSchema,
          response: answers(concentratorSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await save(request, request.body, null), 'devices.saved'),
    );
    app.put(
      '/concentrator/update',
      {
        schema: {
          summary: 'Changes a concentrator',
          body: concentratorUpdateSchema,
          response: answers(concentratorSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await save(request, request.body, request.body.id), 'devices.saved'),
    );

    app.delete(
      '/concentrator/delete',
      {
        schema: {
          summary: 'Deletes a concentrator; answers how many its house has left',
          body: idBodySchema,
          response: answers(deletedSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
        preValidation: bodyOrQuery,
      },
      async (request, reply) => {
        const { id } = request.body;
        const scope = await scopeFor(request);
        const [entry] = await readConcentrators(database, scope, { id });
        if (!entry) throw new Refusal('notFound', 'devices.notFound');
        await database.db.delete(concentrators).where(eq(concentrators.id, id));
        await log(request, 'concentrator.delete', entry.name, {
          id: entry.houseId,
          name: entry.houseName,
        });
        const remaining = (await readConcentrators(database, scope, { houseId: entry.houseId }))
          .length;
        return ok(request, reply, { remaining }, 'devices.deleted');
      },
    );
  };
}
