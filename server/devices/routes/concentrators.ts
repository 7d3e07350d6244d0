import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  concentratorInputSchema,
  concentratorUpdateSchema,
  deviceListQuerySchema,
  idBodySchema,
} from '../../../src/contract/devices';
import { ok, parseInput } from '../../http/envelope';
import { Refusal } from '../../refusal';
import { isUniqueViolation, type DeviceContext } from '../access';
import { readConcentrators } from '../equipment';
import { OPERATING } from '../../auth/operate';

/** Concentrators of the houses in scope: list with search, create, edit, delete. */
export function concentratorRoutes(dc: DeviceContext): FastifyPluginAsync {
  const { database, scopeFor, houseIn, log } = dc;
  return async (app) => {
    app.get('/concentrator/list', async (request, reply) => {
      const q = parseInput(deviceListQuerySchema, request.query);
      const scope = await scopeFor(request);
      if (q.houseId !== undefined) await houseIn(scope, q.houseId);
      const rows = await readConcentrators(database, scope, q);
      return ok(request, reply, { rows, total: rows.length });
    });

    const save = async (request: FastifyRequest, id: number | null) => {
      const v =
        id === null
          ? parseInput(concentratorInputSchema, request.body)
          : parseInput(concentratorUpdateSchema, request.body);
      const scope = await scopeFor(request);
      const house = await houseIn(scope, v.houseId);
      if (id !== null && (await readConcentrators(database, scope, { id })).length === 0)
        throw new Refusal('notFound', 'devices.notFound');
      const values = [v.houseId, v.type, v.code, v.name, v.model, v.address, v.version];
      let saved: { id: number } | undefined;
      try {
        [saved] =
          id === null
            ? await database.query<{ id: number }>(
                `insert into concentrators (house_id, type, code, name, model, address, version)
                 values ($1,$2,$3,$4,$5,$6,$7) returning id`,
                values,
              )
            : await database.query<{ id: number }>(
                `update concentrators set (house_id, type, code, name, model, address, version) =
                 ($1,$2,$3,$4,$5,$6,$7) where id = $8 returning id`,
                [...values, id],
              );
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

    app.post('/concentrator/create', OPERATING, async (request, reply) =>
      ok(request, reply, await save(request, null), 'devices.saved'),
    );
    app.put('/concentrator/update', OPERATING, async (request, reply) => {
      const { id } = parseInput(idBodySchema, request.body);
      return ok(request, reply, await save(request, id), 'devices.saved');
    });

    app.delete('/concentrator/delete', OPERATING, async (request, reply) => {
      const { id } = parseInput(idBodySchema, request.body ?? request.query);
      const scope = await scopeFor(request);
      const [entry] = await readConcentrators(database, scope, { id });
      if (!entry) throw new Refusal('notFound', 'devices.notFound');
      await database.query('delete from concentrators where id = $1', [id]);
      await log(request, 'concentrator.delete', entry.name, {
        id: entry.houseId,
        name: entry.houseName,
      });
      const remaining = (await readConcentrators(database, scope, { houseId: entry.houseId }))
        .length;
      return ok(request, reply, { remaining }, 'devices.deleted');
    });
  };
}
