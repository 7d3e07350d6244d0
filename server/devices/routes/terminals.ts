import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  deletedSchema,
  deviceListQuerySchema,
  idBodySchema,
  terminalInputSchema,
  terminalListSchema,
  terminalSchema,
  terminalUpdateSchema,
} from '../../../src/contract/devices';
import { METRIC_BY_KEY, deviceTypeOf } from '../../../src/contract/metrics';
import type { Scope } from '../../auth/scope';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin, bodyOrQuery } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { isUniqueViolation, type DeviceContext } from '../access';
import { readConcentrators, readTerminals } from '../equipment';

/** Terminal devices of the houses in scope, with their extra parameters. */
export function terminalRoutes(dc: DeviceContext): RoutePlugin {
  const { database, scopeFor, houseIn, log, forgetGatewayOf } = dc;

  /**
   * An extra parameter's code is the key its readings arrive under: it may not be a catalogue
   * metric or a controller port, nor another device's extra parameter of the same house.
   */
  const checkExtras = async (
    houseId: number,
    id: number | null,
    codes: readonly string[],
  ): Promise<void> => {
    for (const code of codes)
      if (METRIC_BY_KEY.has(code) || deviceTypeOf(code))
        throw new Refusal('invalid', 'devices.codeIsCatalogue', { code });
    if (codes.length === 0) return;
    const rows = await database.query<{ code: string }>(
      `select e->>'code' as code from terminal_devices d, jsonb_array_elements(d.extras) e
       where d.house_id = $1 and d.id <> $2 and e->>'code' = any($3::text[])`,
      [houseId, id ?? 0, codes],
    );
    if (rows[0]) throw new Refusal('conflict', 'devices.extraTaken', { code: rows[0].code });
  };

  const checkConcentrator = async (
    scope: Scope,
    houseId: number,
    concentratorId: number | null,
  ) => {
    if (concentratorId === null) return;
    const [c] = await readConcentrators(database, scope, { id: concentratorId });
    if (!c || c.houseId !== houseId) throw new Refusal('invalid', 'devices.noConcentrator');
  };

  return async (app) => {
    app.get(
      '/terminal/list',
      {
        schema: {
          summary: 'The terminal devices of the houses in scope, found by name, code or model',
          querystring: deviceListQuerySchema,
          response: answers(terminalListSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        if (q.houseId !== undefined) await houseIn(scope, q.houseId);
        const rows = await readTerminals(database, scope, q);
        return ok(request, reply, { rows, total: rows.length });
      },
    );

    const save = async (
      request: FastifyRequest,
      v: z.output<typeof terminalInputSchema>,
      id: number | null,
    ) => {
      const scope = await scopeFor(request);
      const house = await houseIn(scope, v.houseId);
      const before = id === null ? null : (await readTerminals(database, scope, { id }))[0];
      if (id !== null && !before) throw new Refusal('notFound', 'devices.notFound');
      await checkConcentrator(scope, v.houseId, v.concentratorId);
      await checkExtras(
        v.houseId,
        id,
        v.extras.map((e) => e.code),
      );
      const values = [
        v.houseId,
        v.concentratorId,
        v.name,
        v.code,
        v.controlPort,
        v.currentPort,
        v.sensorPort,
        v.model,
        v.address,
        v.canInput,
        v.type,
        JSON.stringify(v.extras),
      ];
      const cols = `house_id, concentrator_id, name, code, control_port, current_port, sensor_port,
        model, address, can_input, type, extras`;
      let saved: { id: number } | undefined;
      try {
        [saved] =
          id === null
            ? await database.query<{ id: number }>(
                `insert into terminal_devices (${cols}) values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12::jsonb) returning id`,
                values,
              )
            : await database.query<{ id: number }>(
                `update terminal_devices set (${cols}) = ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12::jsonb)
                 where id = $13 returning id`,
                [...values, id],
              );
      } catch (error) {
        if (isUniqueViolation(error)) throw new Refusal('conflict', 'devices.codeTaken');
        throw error;
      }
      if (!saved) throw new Refusal('notFound', 'devices.notFound');
      await forgetGatewayOf(v.houseId);
      if (before && before.houseId !== v.houseId) await forgetGatewayOf(before.houseId);
      await log(request, id === null ? 'terminal.create' : 'terminal.update', v.name, house);
      const [row] = await readTerminals(database, scope, { id: saved.id });
      return row;
    };

    app.post(
      '/terminal/create',
      {
        schema: {
          summary: 'Adds a terminal device (a fan, a sensor, a scale …) to a house',
          body: terminalInputSchema,
          response: answers(terminalSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await save(request, request.body, null), 'devices.saved'),
    );
    app.put(
      '/terminal/update',
      {
        schema: {
          summary: 'Changes a terminal device and its extra parameters',
          body: terminalUpdateSchema,
          response: answers(terminalSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await save(request, request.body, request.body.id), 'devices.saved'),
    );

    app.delete(
      '/terminal/delete',
      {
        schema: {
          summary: 'Deletes a terminal device; answers how many its house has left',
          body: idBodySchema,
          response: answers(deletedSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
        preValidation: bodyOrQuery,
      },
      async (request, reply) => {
        const { id } = request.body;
        const scope = await scopeFor(request);
        const [entry] = await readTerminals(database, scope, { id });
        if (!entry) throw new Refusal('notFound', 'devices.notFound');
        await database.query('delete from terminal_devices where id = $1', [id]);
        await forgetGatewayOf(entry.houseId);
        await log(request, 'terminal.delete', entry.name, {
          id: entry.houseId,
          name: entry.houseName,
        });
        const remaining = (await readTerminals(database, scope, { houseId: entry.houseId })).length;
        return ok(request, reply, { remaining }, 'devices.deleted');
      },
    );
  };
}
