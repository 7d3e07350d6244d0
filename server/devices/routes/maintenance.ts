import type { FastifyRequest } from 'fastify';
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  deletedSchema,
  idBodySchema,
  maintenanceCompletedSchema,
  maintenanceCompleteSchema,
  maintenanceHistoryListSchema,
  maintenancePlanInputSchema,
  maintenancePlanListSchema,
  maintenancePlanSchema,
  maintenancePlanUpdateSchema,
  type MaintenanceType,
} from '../../../src/contract/devices';
import type { Scope } from '../../auth/scope';
import { maintenanceHistory, maintenancePlans } from '../../db/devicesSchema';
import { houses } from '../../db/schema';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin, bodyOrQuery } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { houseScopeWhere, type DeviceContext } from '../access';
import { readTerminals } from '../equipment';
import { completePlan, readPlans, runSecondsOf } from '../maintenance';

const planQuery = z.object({
  houseId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

/** What the maintenance routes read the time from: the tests set it, the server uses the wall clock. */
export type Clock = () => Date;

/** Maintenance plans (replace, duration, regular), their completion and history. */
export function maintenanceRoutes(dc: DeviceContext, timeZone: string, clock: Clock): RoutePlugin {
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
    app.get(
      '/maintenance/list',
      {
        schema: {
          summary: 'The maintenance plans of the houses in scope, with whether each is due',
          querystring: planQuery,
          response: answers(maintenancePlanListSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        if (q.houseId !== undefined) await houseIn(scope, q.houseId);
        const rows = await readPlans(database, scope, clock(), timeZone, q);
        return ok(request, reply, { rows, total: rows.length });
      },
    );

    const save = async (
      request: FastifyRequest,
      v: z.output<typeof maintenancePlanInputSchema>,
      id: number | null,
    ) => {
      const scope = await scopeFor(request);
      const house = await houseIn(scope, v.houseId);
      const before = id === null ? null : await planOf(scope, id);
      await checkDevice(scope, v.houseId, v.deviceId);
      // A duration plan counts run hours from now (or keeps its count while its device stays).
      const base =
        v.type === 'duration' && v.deviceId !== null && before?.deviceId !== v.deviceId
          ? await runSecondsOf(database.db, v.deviceId)
          : null;
      const values = {
        houseId: v.houseId,
        deviceId: v.deviceId,
        type: v.type,
        content: v.content,
        description: v.description,
        plannedDate: v.plannedDate,
        interval: v.interval,
      };
      const p = maintenancePlans;
      const [saved] =
        id === null
          ? await database.db
              .insert(p)
              .values({ ...values, baseRunSeconds: base ?? 0 })
              .returning({ id: p.id })
          : await database.db
              .update(p)
              .set({ ...values, ...(base === null ? {} : { baseRunSeconds: base }) })
              .where(eq(p.id, id))
              .returning({ id: p.id });
      if (!saved) throw new Refusal('notFound', 'devices.notFound');
      await log(
        request,
        id === null ? 'maintenance.create' : 'maintenance.update',
        v.content,
        house,
      );
      return planOf(scope, saved.id);
    };

    app.post(
      '/maintenance/create',
      {
        schema: {
          summary: 'Adds a maintenance plan (a replacement, every so many days or run hours)',
          body: maintenancePlanInputSchema,
          response: answers(maintenancePlanSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await save(request, request.body, null), 'devices.saved'),
    );
    app.put(
      '/maintenance/update',
      {
        schema: {
          summary: 'Changes a maintenance plan',
          body: maintenancePlanUpdateSchema,
          response: answers(maintenancePlanSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) =>
        ok(request, reply, await save(request, request.body, request.body.id), 'devices.saved'),
    );

    app.delete(
      '/maintenance/delete',
      {
        schema: {
          summary: 'Deletes a maintenance plan; answers how many its house has left',
          body: idBodySchema,
          response: answers(deletedSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
        preValidation: bodyOrQuery,
      },
      async (request, reply) => {
        const { id } = request.body;
        const scope = await scopeFor(request);
        const plan = await planOf(scope, id);
        await database.db.delete(maintenancePlans).where(eq(maintenancePlans.id, id));
        await log(request, 'maintenance.delete', plan.content, {
          id: plan.houseId,
          name: plan.houseName,
        });
        const remaining = (
          await readPlans(database, scope, clock(), timeZone, { houseId: plan.houseId })
        ).length;
        return ok(request, reply, { remaining }, 'devices.deleted');
      },
    );

    app.post(
      '/maintenance/complete',
      {
        schema: {
          summary:
            'Records a plan as done and schedules its next time (a replacement is then gone)',
          body: maintenanceCompleteSchema,
          response: answers(maintenanceCompletedSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const { id, notes } = request.body;
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
      },
    );

    app.get(
      '/maintenance/history',
      {
        schema: {
          summary: 'The maintenance done in the houses in scope, newest first (the last 500)',
          querystring: planQuery,
          response: answers(maintenanceHistoryListSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        if (q.houseId !== undefined) await houseIn(scope, q.houseId);
        const m = maintenanceHistory;
        const rows = await database.db
          .select({
            id: m.id,
            planId: m.planId,
            houseName: houses.name,
            deviceName: m.deviceName,
            type: sql<MaintenanceType>`${m.type}`,
            content: m.content,
            doneAt: m.doneAt,
            doneBy: m.doneBy,
            notes: m.notes,
          })
          .from(m)
          .innerJoin(houses, eq(houses.id, m.houseId))
          .where(
            and(
              houseScopeWhere(scope, m.houseId),
              q.houseId !== undefined ? eq(m.houseId, q.houseId) : undefined,
            ),
          )
          .orderBy(desc(m.doneAt), desc(m.id))
          .limit(500);
        const list = rows.map((r) => ({ ...r, doneAt: r.doneAt.toISOString() }));
        return ok(request, reply, { rows: list, total: list.length });
      },
    );
  };
}
