import type { FastifyRequest } from 'fastify';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { farms, flocks, gateways, houses, organizations } from '../../db/schema';
import { sessionOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { answers, done, type RoutePlugin } from '../../http/routeSchema';
import {
  farmInputSchema,
  houseInputSchema,
  idBodySchema,
  type FarmNode,
} from '../../../src/contract/admin';
import { farmTreeSchema, idAnswerSchema } from '../../../src/contract/adminAnswers';
import type { FarmLevel } from '../../../src/contract/domain';
import type { FixedOperationKey } from '../../../src/contract/operationLog';
import { logChange, manageableNodes, managesAll } from '../access';

/** Farm management is for administrators and company managers (the product's role table). */
export const FARM_ADMIN_ROLES = ['administrator', 'company_manager'] as const;

const PARENT_LEVEL: Record<FarmLevel, FarmLevel | null> = {
  group: null,
  company: 'group',
  farm: 'company',
};

type FarmRecord = typeof farms.$inferSelect;

/**
 * Checks that the caller may change node `id` (or create below it when `below`): 404 when
 * the node does not exist or lies outside the caller's part of the tree. A company manager
 * may create below its company node, never change the node itself.
 */
export async function nodeForChange(
  db: Db,
  request: FastifyRequest,
  id: number,
  below = false,
): Promise<FarmRecord> {
  const manageable = await manageableNodes(db, sessionOf(request).user);
  const [node] = await db.select().from(farms).where(eq(farms.id, id));
  if (!node) throw new ApiError(404, 'admin.notFound');
  if (manageable.all) return node;
  if (!manageable.ids.has(id)) throw new ApiError(404, 'admin.notFound');
  if (id === manageable.root && !below) throw new ApiError(403, 'auth.forbidden');
  return node;
}

function buildTree(
  rows: FarmRecord[],
  houseCounts: Map<number, number>,
  roots: number[] | null,
): FarmNode[] {
  const nodes = new Map<number, FarmNode>();
  for (const r of rows) {
    nodes.set(r.id, {
      id: r.id,
      orgId: r.orgId,
      parentId: r.parentId,
      level: r.level as FarmLevel,
      name: r.name,
      type: r.type,
      provinceAdcode: r.provinceAdcode,
      provinceName: r.provinceName,
      longitude: r.longitude,
      latitude: r.latitude,
      address: r.address,
      houseCount: houseCounts.get(r.id) ?? 0,
      children: [],
    });
  }
  const top: FarmNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (roots ? roots.includes(node.id) : !parent) top.push(node);
    else parent?.children.push(node);
  }
  return top;
}

/** The log's key for a change to a node of each level. */
const LEVEL_OPERATIONS = {
  group: { create: 'createGroup', update: 'updateGroup', delete: 'deleteGroup' },
  company: { create: 'createCompany', update: 'updateCompany', delete: 'deleteCompany' },
  farm: { create: 'createFarm', update: 'updateFarm', delete: 'deleteFarm' },
} as const satisfies Record<FarmLevel, Record<string, FixedOperationKey>>;
const levelOperation = (verb: 'create' | 'update' | 'delete', level: FarmLevel) =>
  LEVEL_OPERATIONS[level][verb];

export function farmRoutes(ctx: AppContext): RoutePlugin {
  const { db } = ctx.database;
  return async (app) => {
    app.get(
      '/farm/tree',
      {
        schema: {
          summary:
            "The farm tree (groups, companies, farms) the caller manages, with each node's house count",
          response: answers(farmTreeSchema),
        },
        config: { roles: FARM_ADMIN_ROLES },
      },
      async (request, reply) => {
        const manageable = await manageableNodes(db, sessionOf(request).user);
        const [rows, counts] = await Promise.all([
          db.select().from(farms).orderBy(asc(farms.id)),
          db.select({ farmId: houses.farmId, n: count() }).from(houses).groupBy(houses.farmId),
        ]);
        const visible = manageable.all ? rows : rows.filter((r) => manageable.ids.has(r.id));
        const houseCounts = new Map(counts.map((c) => [c.farmId, Number(c.n)]));
        const roots = manageable.all ? null : manageable.root === null ? [] : [manageable.root];
        return ok(request, reply, buildTree(visible, houseCounts, roots));
      },
    );

    app.post(
      '/farm/create',
      {
        schema: {
          summary:
            'Creates a group (administrators), or a company or farm below a node the caller manages',
          body: farmInputSchema,
          response: answers(idAnswerSchema),
        },
        config: { roles: FARM_ADMIN_ROLES },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const { id: _ignored, ...input } = request.body;
        let orgId: number;
        if (input.level === 'group') {
          // A new top of the tree is an administrator's decision.
          if (!managesAll(user)) throw new ApiError(403, 'auth.forbidden');
          if (input.parentId !== undefined || input.orgId === undefined)
            throw new ApiError(400, 'admin.parentInvalid');
          const [org] = await db
            .select({ id: organizations.id })
            .from(organizations)
            .where(eq(organizations.id, input.orgId));
          if (!org) throw new ApiError(404, 'admin.notFound');
          orgId = org.id;
        } else {
          if (input.parentId === undefined) throw new ApiError(400, 'admin.parentInvalid');
          const parent = await nodeForChange(db, request, input.parentId, true);
          if (parent.level !== PARENT_LEVEL[input.level])
            throw new ApiError(400, 'admin.parentInvalid');
          orgId = parent.orgId;
        }
        const [row] = await db
          .insert(farms)
          .values({
            ...input,
            orgId,
            parentId: input.parentId ?? null,
            provinceAdcode: input.provinceAdcode ?? null,
            provinceName: input.provinceName || null,
            longitude: input.longitude ?? null,
            latitude: input.latitude ?? null,
          })
          .returning();
        await logChange(db, request, {
          function: 'farm.create',
          operation: { key: levelOperation('create', input.level), params: {} },
          remark: input.name,
        });
        return ok(request, reply, { id: row!.id }, 'admin.saved');
      },
    );

    // Level and parent stay as created: moving subtrees would silently move users' scopes.
    app.put(
      '/farm/update',
      {
        schema: {
          summary: 'Changes a node of the farm tree (its level and parent stay)',
          body: farmInputSchema,
          response: answers(idAnswerSchema),
        },
        config: { roles: FARM_ADMIN_ROLES },
      },
      async (request, reply) => {
        const input = request.body;
        if (input.id === undefined) throw new ApiError(400, 'http.invalidField', { field: 'id' });
        const node = await nodeForChange(db, request, input.id);
        await db
          .update(farms)
          .set({
            name: input.name,
            type: input.type,
            provinceAdcode: input.provinceAdcode ?? null,
            provinceName: input.provinceName || null,
            longitude: input.longitude ?? null,
            latitude: input.latitude ?? null,
            address: input.address,
          })
          .where(eq(farms.id, node.id));
        await logChange(db, request, {
          function: 'farm.update',
          operation: { key: levelOperation('update', node.level as FarmLevel), params: {} },
          remark: input.name,
        });
        return ok(request, reply, { id: node.id }, 'admin.saved');
      },
    );

    // No cascade: a node with children or houses is refused with their counts (409), so the
    // confirm the user saw ("delete this node") is exactly what happens.
    app.delete(
      '/farm/delete',
      {
        schema: {
          summary: 'Deletes a node of the farm tree that has no children and no houses',
          body: idBodySchema,
          response: done,
        },
        config: { roles: FARM_ADMIN_ROLES },
      },
      async (request, reply) => {
        const { id } = request.body;
        const node = await nodeForChange(db, request, id);
        const [[c], [h]] = await Promise.all([
          db.select({ n: count() }).from(farms).where(eq(farms.parentId, id)),
          db.select({ n: count() }).from(houses).where(eq(houses.farmId, id)),
        ]);
        const nodes = Number(c?.n ?? 0);
        const houseCount = Number(h?.n ?? 0);
        if (nodes + houseCount > 0)
          throw new ApiError(409, 'admin.farmHasChildren', { nodes, houses: houseCount });
        await db.delete(farms).where(eq(farms.id, id));
        await logChange(db, request, {
          function: 'farm.delete',
          operation: { key: levelOperation('delete', node.level as FarmLevel), params: {} },
          remark: node.name,
        });
        return ok(request, reply, null, 'admin.deleted');
      },
    );

    app.post(
      '/house/create',
      {
        schema: {
          summary: 'Creates a house on a farm the caller manages',
          body: houseInputSchema,
          response: answers(idAnswerSchema),
        },
        config: { roles: FARM_ADMIN_ROLES },
      },
      async (request, reply) => {
        const { id: _ignored, ...input } = request.body;
        const farm = await nodeForChange(db, request, input.farmId, true);
        if (farm.level !== 'farm') throw new ApiError(400, 'admin.parentInvalid');
        const [row] = await db.insert(houses).values(input).returning();
        await logChange(db, request, {
          function: 'house.create',
          operation: { key: 'createHouse', params: {} },
          house: { id: row!.id, name: row!.name },
          remark: farm.name,
        });
        return ok(request, reply, { id: row!.id }, 'admin.saved');
      },
    );

    app.put(
      '/house/update',
      {
        schema: {
          summary: 'Renames, reorders or moves a house between farms the caller manages',
          body: houseInputSchema,
          response: answers(idAnswerSchema),
        },
        config: { roles: FARM_ADMIN_ROLES },
      },
      async (request, reply) => {
        const input = request.body;
        if (input.id === undefined) throw new ApiError(400, 'http.invalidField', { field: 'id' });
        const house = await houseForChange(db, request, input.id);
        // A house moves only between farms the caller manages.
        if (input.farmId !== house.farmId) {
          const target = await nodeForChange(db, request, input.farmId, true);
          if (target.level !== 'farm') throw new ApiError(400, 'admin.parentInvalid');
        }
        await db
          .update(houses)
          .set({ name: input.name, sort: input.sort, farmId: input.farmId })
          .where(eq(houses.id, house.id));
        await logChange(db, request, {
          function: 'house.update',
          operation: { key: 'updateHouse', params: {} },
          house: { id: house.id, name: input.name },
        });
        return ok(request, reply, { id: house.id }, 'admin.saved');
      },
    );

    app.delete(
      '/house/delete',
      {
        schema: {
          summary: 'Deletes a house that has no gateway and no open flock',
          body: idBodySchema,
          response: done,
        },
        config: { roles: FARM_ADMIN_ROLES },
      },
      async (request, reply) => {
        const { id } = request.body;
        const house = await houseForChange(db, request, id);
        const [[g], [f]] = await Promise.all([
          db.select({ n: count() }).from(gateways).where(eq(gateways.houseId, id)),
          db
            .select({ n: count() })
            .from(flocks)
            .where(and(eq(flocks.houseId, id), isNull(flocks.closedOn))),
        ]);
        if (Number(g?.n ?? 0) + Number(f?.n ?? 0) > 0)
          throw new ApiError(409, 'admin.houseHasGateway');
        await db.delete(houses).where(eq(houses.id, id));
        await logChange(db, request, {
          function: 'house.delete',
          operation: { key: 'deleteHouse', params: {} },
          remark: house.name,
        });
        return ok(request, reply, null, 'admin.deleted');
      },
    );
  };
}

/** A house the caller may change (its farm is in the caller's part of the tree), or 404. */
export async function houseForChange(
  db: Db,
  request: FastifyRequest,
  id: number,
): Promise<typeof houses.$inferSelect> {
  const [house] = await db.select().from(houses).where(eq(houses.id, id));
  if (!house) throw new ApiError(404, 'admin.notFound');
  await nodeForChange(db, request, house.farmId, true);
  return house;
}
