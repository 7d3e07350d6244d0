import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  idBodySchema,
  maintenanceCompleteSchema,
  maintenancePlanInputSchema,
  maintenancePlanUpdateSchema,
  type MaintenanceHistory,
} from '../../../src/contract/devices';
import type { Scope } from '../../auth/scope';
import { ok, parseInput } from '../../http/envelope';
import { Refusal } from '../../refusal';
import { houseScopeWhere, type DeviceContext } from '../access';
import { readTerminals } from '../equipment';
import { completePlan, readPlans, runSecondsOf } from '../maintenance';
import { OPERATING } from '../../auth/operate';

const planQuery = z.object({
  houseId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

/** What the maintenance routes read the time from: the tests set it, the server uses the wall clock. */
export type Clock = () => Date;

/** Maintenance plans (replace, duration, regular), their completion and history. */
export function maintenanceRoutes(
  dc: DeviceContext,
  timeZone: string,
  clock: Clock,
): FastifyPluginAsync {
  const { database, scopeFor, houseIn, log, operatorName } = dc;

  const checkDevice = async (scope: Scope, houseId: number, deviceId: number | null) => {
    if (deviceId === null) return null;
    const [device] = await readTerminals(database, scope, { id: deviceId });
    if (!device || device.houseId !== houseId)
      throw new Refusal('invalid', 'devices.deviceRequired');
    return device;
  };

  const planOf = async (scope: Scope, id: number) => {
    const [plan] = await readPlans(database, scope, clock(), timeZone, { id });
    if (!plan) throw new Refusal('notFound', 'devices.notFound');
    return plan;
  };

  return async (app) => {
    app.get('/maintenance/list', async (request, reply) => {
      const q = parseInput(planQuery, request.query);
      const scope = await scopeFor(request);
      if (q.houseId !== undefined) await houseIn(scope, q.houseId);
      const rows = await readPlans(database, scope, clock(), timeZone, q);
      return ok(request, reply, { rows, total: rows.length });
    });

    const save = async (request: FastifyRequest, id: number | null) => {
      const v =
        id === null
          ? parseInput(maintenancePlanInputSchema, request.body)
          : parseInput(maintenancePlanUpdateSchema, request.body);
      const scope = await scopeFor(request);
      const house = await houseIn(scope, v.houseId);
      const before = id === null ? null : await planOf(scope, id);
      await checkDevice(scope, v.houseId, v.deviceId);
      // A duration plan counts run hours from now (or keeps its count while its device stays).
      const base =
        v.type === 'duration' && v.deviceId !== null && before?.deviceId !== v.deviceId
          ? await runSecondsOf(database.query, v.deviceId)
          : null;
      const values = [
        v.houseId,
        v.deviceId,
        v.type,
        v.content,
        v.description,
        v.plannedDate,
        v.interval,
      ];
      const [saved] =
        id === null
          ? await database.query<{ id: number }>(
              `insert into maintenance_plans (house_id, device_id, type, content, description, planned_date, interval, base_run_seconds)
               values ($1,$2,$3,$4,$5,$6,$7,coalesce($8, 0)) returning id`,
              [...values, base],
            )
          : await database.query<{ id: number }>(
              `update maintenance_plans set (house_id, device_id, type, content, description, planned_date, interval) =
               ($1,$2,$3,$4,$5,$6,$7), base_run_seconds = coalesce($8, base_run_seconds) where id = $9 returning id`,
              [...values, base, id],
            );
      if (!saved) throw new Refusal('notFound', 'devices.notFound');
      await log(
        request,
        id === null ? 'maintenance.create' : 'maintenance.update',
        v.content,
        house,
      );
      return planOf(scope, saved.id);
    };

    app.post('/maintenance/create', OPERATING, async (request, reply) =>
      ok(request, reply, await save(request, null), 'devices.saved'),
    );
    app.put('/maintenance/update', OPERATING, async (request, reply) => {
      const { id } = parseInput(idBodySchema, request.body);
      return ok(request, reply, await save(request, id), 'devices.saved');
    });

    app.delete('/maintenance/delete', OPERATING, async (request, reply) => {
      const { id } = parseInput(idBodySchema, request.body ?? request.query);
      const scope = await scopeFor(request);
      const plan = await planOf(scope, id);
      await database.query('delete from maintenance_plans where id = $1', [id]);
      await log(request, 'maintenance.delete', plan.content, {
        id: plan.houseId,
        name: plan.houseName,
      });
      const remaining = (
        await readPlans(database, scope, clock(), timeZone, { houseId: plan.houseId })
      ).length;
      return ok(request, reply, { remaining }, 'devices.deleted');
    });

    app.post('/maintenance/complete', OPERATING, async (request, reply) => {
      const { id, notes } = parseInput(maintenanceCompleteSchema, request.body);
      const scope = await scopeFor(request);
      const plan = await planOf(scope, id);
      const result = await completePlan(database, plan, {
        by: operatorName(request),
        at: clock(),
        notes,
        timeZone,
      });
      await log(request, 'maintenance.complete', plan.content, {
        id: plan.houseId,
        name: plan.houseName,
      });
      const next = result.removed ? null : await planOf(scope, id);
      return ok(request, reply, { plan: next }, 'devices.completed');
    });

    app.get('/maintenance/history', async (request, reply) => {
      const q = parseInput(planQuery, request.query);
      const scope = await scopeFor(request);
      if (q.houseId !== undefined) await houseIn(scope, q.houseId);
      const params: unknown[] = [];
      const where = [houseScopeWhere(scope, params, 'm.house_id')];
      if (q.houseId !== undefined) where.push(`m.house_id = $${params.push(q.houseId)}`);
      const rows = await database.query<MaintenanceHistory & { doneAt: Date | string }>(
        `select m.id, m.plan_id as "planId", h.name as "houseName", m.device_name as "deviceName", m.type,
           m.content, m.done_at as "doneAt", m.done_by as "doneBy", m.notes
         from maintenance_history m join houses h on h.id = m.house_id
         where ${where.join(' and ')} order by m.done_at desc, m.id desc limit 500`,
        params,
      );
      const list = rows.map((r) => ({ ...r, doneAt: new Date(r.doneAt).toISOString() }));
      return ok(request, reply, { rows: list, total: list.length });
    });
  };
}
