import type { FastifyRequest } from 'fastify';
import { and, asc, eq, ne } from 'drizzle-orm';
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
import { terminalDevices } from '../../db/devicesSchema';
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
    const d = terminalDevices;
    const rows = await database.db
      .select({ extras: d.extras })
      .from(d)
      .where(and(eq(d.houseId, houseId), ne(d.id, id ?? 0)))
      .orderBy(asc(d.id));
    // The house's devices are few: their lists are searched here rather than unnested in SQL.
    const taken = rows.flatMap((r) => r.extras.map((e) => e.code)).find((c) => codes.includes(c));
    if (taken !== undefined) throw new Refusal('conflict', 'devices.extraTaken', { code: taken });
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
      const values = {
        houseId: v.houseId,
        concentratorId: v.concentratorId,
        name: v.name,
        code: v.code,
        controlPort: v.controlPort,
        currentPort: v.currentPort,
        sensorPort: v.sensorPort,
        model: v.model,
        address: v.address,
        canInput: v.canInput,
        type: v.type,
        extras: v.extras,
      };
      let saved: { id: number } | undefined;
      try {
        [saved] =
          id === null
            ? await database.db
                .insert(terminalDevices)
                .values(values)
                .returning({ id: terminalDevices.id })
            : await database.db
                .update(terminalDevices)
                .set(values)
                .where(eq(terminalDevices.id, id))
                .returning({ id: terminalDevices.id });
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
        await database.db.delete(terminalDevices).where(eq(terminalDevices.id, id));
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
