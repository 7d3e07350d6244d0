import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  deviceListQuerySchema,
  idBodySchema,
  terminalInputSchema,
  terminalUpdateSchema,
} from '../../../src/contract/devices';
import { METRIC_BY_KEY, deviceTypeOf } from '../../../src/contract/metrics';
import type { Scope } from '../../auth/scope';
import { ok, parseInput } from '../../http/envelope';
import { Refusal } from '../../refusal';
import { isUniqueViolation, type DeviceContext } from '../access';
import { readConcentrators, readTerminals } from '../equipment';
import { OPERATING } from '../../auth/operate';

/** Terminal devices of the houses in scope, with their extra parameters. */
export function terminalRoutes(dc: DeviceContext): FastifyPluginAsync {
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
    app.get('/terminal/list', async (request, reply) => {
      const q = parseInput(deviceListQuerySchema, request.query);
      const scope = await scopeFor(request);
      if (q.houseId !== undefined) await houseIn(scope, q.houseId);
      const rows = await readTerminals(database, scope, q);
      return ok(request, reply, { rows, total: rows.length });
    });

    const save = async (request: FastifyRequest, id: number | null) => {
      const v =
        id === null
          ? parseInput(terminalInputSchema, request.body)
          : parseInput(terminalUpdateSchema, request.body);
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

    app.post('/terminal/create', OPERATING, async (request, reply) =>
      ok(request, reply, await save(request, null), 'devices.saved'),
    );
    app.put('/terminal/update', OPERATING, async (request, reply) => {
      const { id } = parseInput(idBodySchema, request.body);
      return ok(request, reply, await save(request, id), 'devices.saved');
    });

    app.delete('/terminal/delete', OPERATING, async (request, reply) => {
      const { id } = parseInput(idBodySchema, request.body ?? request.query);
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
    });
  };
}
