import { asc, eq } from 'drizzle-orm';
import { hashPassword } from '../../auth/password';
import { canSeeHouse } from '../../auth/scope';
import {
  farms,
  houses,
  organizations,
  sessions,
  userFarms,
  userHouses,
  users,
} from '../../db/schema';
import { sessionOf, type AppContext } from '../../http/context';
import { ok, parseInput } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { answers, done, type RoutePlugin } from '../../http/routeSchema';
import {
  idBodySchema,
  saveUserShacksSchema,
  searchByShackQuerySchema,
  userListQuerySchema,
  userSaveSchema,
  type AssignableOptions,
  type ResetPasswordResult,
} from '../../../src/contract/admin';
import {
  assignableOptionsSchema,
  idAnswerSchema,
  resetPasswordSchema,
  userRowSchema,
} from '../../../src/contract/adminAnswers';
import { pagedSchema } from '../../../src/contract/paged';
import { newPasswordSchema } from '../../../src/contract/password';
import { conflictAs, logChange, managesAll } from '../access';
import type { TakenBudget } from '../probes';
import {
  assignableRoles,
  manageableUser,
  manageableUsers,
  randomPassword,
  viewerOf,
  type Viewer,
} from '../userAccess';
import { scopeInside, scopeOfAssignment } from '../userScope';

/** User management is for these four roles; house managers manage no one. */
const USER_ADMIN_ROLES = [
  'administrator',
  'company_manager',
  'area_manager',
  'farm_manager',
] as const;

type SaveInput = ReturnType<typeof userSaveSchema.parse>;

/**
 * Checks the role and the assignment a save asks for: the role below the actor's own, the
 * assignment inside the actor's scope and complete enough that the actor can still see the
 * user afterwards.
 */
function checkAssignment(viewer: Viewer, input: SaveInput): void {
  const { user } = viewer;
  if (!assignableRoles(user.roleKey).includes(input.roleKey))
    throw new ApiError(403, 'admin.roleNotBelow');
  if (input.roleKey === 'company_manager') {
    const id = input.scopeNodeId;
    if (id === undefined) throw new ApiError(400, 'admin.assignmentRequired');
    if (viewer.tree.levelOf(id) !== 'company') throw new ApiError(400, 'admin.parentInvalid');
  }
  for (const id of input.farmIds)
    if (!viewer.tree.has(id)) throw new ApiError(404, 'admin.notFound');
  for (const id of input.shackIds)
    if (!viewer.tree.houseFarm.has(id)) throw new ApiError(404, 'admin.notFound');
  if (managesAll(user) || input.roleKey === 'administrator') return;
  const scope = scopeOfAssignment(viewer.tree, {
    roleKey: input.roleKey,
    scopeNodeId: input.scopeNodeId ?? null,
    farmIds: input.farmIds,
    shackIds: input.shackIds,
  });
  if (scope.all || (scope.farmIds.size === 0 && scope.houseIds.size === 0))
    throw new ApiError(400, 'admin.assignmentRequired');
  // Outside the caller's scope answers like not existing: a 403 told a foreign id from a missing one.
  if (!scopeInside(scope, viewer.scope)) throw new ApiError(404, 'admin.notFound');
}

export function adminUserRoutes(ctx: AppContext, taken: TakenBudget): RoutePlugin {
  const { db } = ctx.database;
  const { edition } = ctx.config;

  /** Ends every session of a user and its live sockets (reset password, delete). */
  async function endAllSessions(userId: number): Promise<void> {
    await db.delete(sessions).where(eq(sessions.userId, userId));
    void ctx.events.emit('otherSessionsEnded', { userId, keepTokenHash: '' });
  }

  return async (app) => {
    app.get(
      '/user/list',
      {
        schema: {
          summary: 'A page of the users the caller manages',
          querystring: userListQuerySchema,
          response: answers(pagedSchema(userRowSchema)),
        },
        config: { roles: USER_ADMIN_ROLES },
      },
      async (request, reply) => {
        const viewer = await viewerOf(db, sessionOf(request).user);
        const q = request.query;
        // Scope is decided per user in memory (see manageableUsers), so paging happens after it.
        const all = await manageableUsers(db, viewer, q);
        const rows = all.slice((q.page - 1) * q.size, q.page * q.size);
        return ok(request, reply, { rows, total: all.length });
      },
    );

    app.post(
      '/user/save',
      {
        schema: {
          summary:
            "Creates or changes a user: role below the caller's, assignment inside its scope",
          body: userSaveSchema,
          response: answers(idAnswerSchema),
        },
        config: { roles: USER_ADMIN_ROLES },
      },
      async (request, reply) => {
        const actor = sessionOf(request).user;
        const viewer = await viewerOf(db, actor);
        const input = request.body;
        taken.assert(actor.id);
        const admin = managesAll(actor);
        if (input.id !== undefined) await manageableUser(db, viewer, input.id);
        checkAssignment(viewer, input);
        if (input.id === undefined && !input.password)
          throw new ApiError(400, 'admin.passwordRequired');
        const password =
          input.id === undefined
            ? parseInput(newPasswordSchema(edition), input.password, edition)
            : null;
        const orgId = admin ? (input.orgId ?? null) : actor.orgId;
        if (admin && orgId !== null) {
          const [org] = await db
            .select({ id: organizations.id })
            .from(organizations)
            .where(eq(organizations.id, orgId));
          if (!org) throw new ApiError(404, 'admin.notFound');
        }
        // A manager cannot hand out rights it does not have itself.
        const values = {
          username: input.username,
          realName: input.realName,
          department: input.department,
          position: input.position,
          officeTel: input.officeTel,
          mobile: input.mobile,
          email: input.email,
          roleKey: input.roleKey,
          canOperate: input.canOperate && (admin || actor.canOperate),
          remoteConfig: input.remoteConfigFlag && (admin || actor.remoteConfig),
          orgId,
          scopeNodeId: input.roleKey === 'company_manager' ? (input.scopeNodeId ?? null) : null,
          updatedAt: new Date(),
        };
        const passwordHash = password === null ? null : await hashPassword(password);
        const id = await db
          .transaction(async (tx) => {
            let userId: number;
            if (input.id === undefined) {
              const [row] = await tx
                .insert(users)
                .values({ ...values, passwordHash: passwordHash! })
                .returning({ id: users.id });
              userId = row!.id;
            } else {
              userId = input.id;
              await tx.update(users).set(values).where(eq(users.id, userId));
              await tx.delete(userFarms).where(eq(userFarms.userId, userId));
              await tx.delete(userHouses).where(eq(userHouses.userId, userId));
            }
            const farmIds = ['area_manager', 'farm_manager'].includes(input.roleKey)
              ? input.farmIds
              : [];
            const shackIds = input.roleKey === 'shack_manager' ? input.shackIds : [];
            if (farmIds.length)
              await tx.insert(userFarms).values(farmIds.map((farmId) => ({ userId, farmId })));
            if (shackIds.length)
              await tx.insert(userHouses).values(shackIds.map((houseId) => ({ userId, houseId })));
            return userId;
          })
          .catch(conflictAs('admin.usernameTaken', { budget: taken, userId: actor.id }));
        await logChange(db, request, {
          function: 'user.save',
          operation:
            input.id === undefined
              ? { key: 'createUser', params: { role: input.roleKey } }
              : { key: 'updateUser', params: { role: input.roleKey } },
          // The role is a parameter, named in the reader's language when the log is shown.
          remark: input.username,
        });
        return ok(request, reply, { id }, 'admin.saved');
      },
    );

    app.delete(
      '/user/delete',
      {
        schema: {
          summary: 'Deletes a user the caller manages and ends its sessions',
          body: idBodySchema,
          response: done,
        },
        config: { roles: USER_ADMIN_ROLES },
      },
      async (request, reply) => {
        const actor = sessionOf(request).user;
        const { id } = request.body;
        if (id === actor.id) throw new ApiError(400, 'admin.cannotDeleteSelf');
        const target = await manageableUser(db, await viewerOf(db, actor), id);
        await endAllSessions(id);
        await db.delete(users).where(eq(users.id, id));
        await logChange(db, request, {
          function: 'user.delete',
          operation: { key: 'deleteUser', params: {} },
          remark: target.username,
        });
        return ok(request, reply, null, 'admin.deleted');
      },
    );

    app.put(
      '/user/resetPwd',
      {
        schema: {
          summary: 'Gives a user a new random password, shown once, and ends its sessions',
          body: idBodySchema,
          response: answers(resetPasswordSchema),
        },
        config: { roles: USER_ADMIN_ROLES },
      },
      async (request, reply) => {
        const actor = sessionOf(request).user;
        const { id } = request.body;
        const target = await manageableUser(db, await viewerOf(db, actor), id);
        const password = randomPassword(edition);
        await db
          .update(users)
          .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
          .where(eq(users.id, id));
        await endAllSessions(id);
        await logChange(db, request, {
          function: 'user.resetPwd',
          operation: { key: 'resetPassword', params: {} },
          remark: target.username,
        });
        const data: ResetPasswordResult = { password };
        return ok(request, reply, data, 'admin.resetDone');
      },
    );

    app.put(
      '/user/saveUserShacks',
      {
        schema: {
          summary: 'Sets the houses of a house manager',
          body: saveUserShacksSchema,
          response: done,
        },
        config: { roles: USER_ADMIN_ROLES },
      },
      async (request, reply) => {
        const actor = sessionOf(request).user;
        const viewer = await viewerOf(db, actor);
        const input = request.body;
        const target = await manageableUser(db, viewer, input.id);
        if (target.roleKey !== 'shack_manager') throw new ApiError(400, 'admin.roleInvalid');
        for (const houseId of input.shackIds) {
          if (!viewer.tree.houseFarm.has(houseId)) throw new ApiError(404, 'admin.notFound');
          if (!canSeeHouse(viewer.scope, houseId)) throw new ApiError(404, 'admin.notFound');
        }
        if (input.shackIds.length === 0 && !managesAll(actor))
          throw new ApiError(400, 'admin.assignmentRequired');
        const shackIds = [...new Set(input.shackIds)];
        await db.transaction(async (tx) => {
          await tx.delete(userHouses).where(eq(userHouses.userId, input.id));
          if (shackIds.length)
            await tx
              .insert(userHouses)
              .values(shackIds.map((houseId) => ({ userId: input.id, houseId })));
        });
        await logChange(db, request, {
          function: 'user.saveUserShacks',
          operation: { key: 'assignHouses', params: {} },
          remark: `${target.username}: ${shackIds.length}`,
        });
        return ok(request, reply, null, 'admin.saved');
      },
    );

    /** What the user form may assign, inside the caller's scope: companies, farms, houses. */
    app.get(
      '/user/assignable',
      {
        schema: {
          summary: 'The roles, companies, farms and houses the caller may assign in the user form',
          response: answers(assignableOptionsSchema),
        },
        config: { roles: USER_ADMIN_ROLES },
      },
      async (request, reply) => {
        const viewer = await viewerOf(db, sessionOf(request).user);
        const [nodes, houseRows] = await Promise.all([
          db
            .select({ id: farms.id, name: farms.name, level: farms.level })
            .from(farms)
            .orderBy(asc(farms.id)),
          db
            .select({ id: houses.id, name: houses.name, farmId: houses.farmId })
            .from(houses)
            .orderBy(asc(houses.farmId), asc(houses.sort), asc(houses.id)),
        ]);
        const inScope = (farmId: number) => viewer.scope.all || viewer.scope.farmIds.has(farmId);
        const farmName = new Map(nodes.map((n) => [n.id, n.name]));
        const data: AssignableOptions = {
          roles: assignableRoles(viewer.user.roleKey),
          companies: viewer.scope.all
            ? nodes.filter((n) => n.level === 'company').map(({ id, name }) => ({ id, name }))
            : [],
          farms: nodes
            .filter((n) => n.level === 'farm' && inScope(n.id))
            .map(({ id, name }) => ({ id, name })),
          houses: houseRows
            .filter((h) => canSeeHouse(viewer.scope, h.id))
            .map((h) => ({ id: h.id, name: `${farmName.get(h.farmId) ?? ''} / ${h.name}` })),
        };
        return ok(request, reply, data);
      },
    );

    app.get(
      '/user/searchByShack',
      {
        schema: {
          summary: 'The users the caller manages who are assigned a house',
          querystring: searchByShackQuerySchema,
          response: answers(pagedSchema(userRowSchema)),
        },
        config: { roles: USER_ADMIN_ROLES },
      },
      async (request, reply) => {
        const viewer = await viewerOf(db, sessionOf(request).user);
        const { shackId } = request.query;
        if (!canSeeHouse(viewer.scope, shackId)) throw new ApiError(404, 'admin.notFound');
        const assigned = await db
          .select({ id: userHouses.userId })
          .from(userHouses)
          .where(eq(userHouses.houseId, shackId));
        const rows = await manageableUsers(db, viewer, { ids: assigned.map((a) => a.id) });
        return ok(request, reply, { rows, total: rows.length });
      },
    );
  };
}
