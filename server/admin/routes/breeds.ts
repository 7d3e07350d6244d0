import type { FastifyPluginAsync } from 'fastify';
import { and, asc, count, eq, ilike, or } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Db } from '../../db/client';
import { breedTargets, breeds, flocks, immuneReminders } from '../../db/schema';
import type { AppContext } from '../../http/context';
import { ok, parseInput } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import {
  breedInputSchema,
  breedListQuerySchema,
  breedTargetsSchema,
  idBodySchema,
  immuneRemindersSchema,
  type BreedDetail,
  type BreedRow,
} from '../../../src/contract/admin';
import { containsPattern, logChange, requireRole } from '../access';
import { breedForChange, visibleBreed, visibleBreeds } from '../breedAccess';
import { FARM_ADMIN_ROLES } from './farms';

type BreedRecord = typeof breeds.$inferSelect;

const present = (b: BreedRecord): BreedRow => ({
  id: b.id,
  orgId: b.orgId,
  name: b.name,
  code: b.code,
  factory: b.factory,
  description: b.description,
  isCommon: b.isCommon,
  operator: b.operator,
  createdAt: b.createdAt.toISOString(),
});

async function detailOf(db: Db, breed: BreedRecord): Promise<BreedDetail> {
  const [targets, immune] = await Promise.all([
    db
      .select()
      .from(breedTargets)
      .where(eq(breedTargets.breedId, breed.id))
      .orderBy(asc(breedTargets.ageDay)),
    db
      .select({ ageDay: immuneReminders.ageDay, content: immuneReminders.content })
      .from(immuneReminders)
      .where(eq(immuneReminders.breedId, breed.id))
      .orderBy(asc(immuneReminders.ageDay), asc(immuneReminders.id)),
  ]);
  return { ...present(breed), targets: targets.map(({ breedId: _b, ...t }) => t), immune };
}

export function breedRoutes(ctx: AppContext): FastifyPluginAsync {
  const { db } = ctx.database;
  const operatorOf = (u: SessionUser) => u.realName || u.username;
  return async (app) => {
    app.get('/breed/list', async (request, reply) => {
      const user = requireRole(request, FARM_ADMIN_ROLES);
      const q = parseInput(breedListQuerySchema, request.query);
      const where = and(
        visibleBreeds(user),
        q.keyword
          ? or(
              ilike(breeds.name, containsPattern(q.keyword)),
              ilike(breeds.code, containsPattern(q.keyword)),
            )
          : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(breeds)
          .where(where)
          .orderBy(asc(breeds.id))
          .limit(q.size)
          .offset((q.page - 1) * q.size),
        db.select({ n: count() }).from(breeds).where(where),
      ]);
      return ok(request, reply, { rows: rows.map(present), total: Number(total?.n ?? 0) });
    });

    app.get('/breed/get', async (request, reply) => {
      const user = requireRole(request, FARM_ADMIN_ROLES);
      const { id } = parseInput(idBodySchema, request.query);
      return ok(request, reply, await detailOf(db, await visibleBreed(db, user, id)));
    });

    app.post('/breed/create', async (request, reply) => {
      const user = requireRole(request, FARM_ADMIN_ROLES);
      const { id: _ignored, ...input } = parseInput(breedInputSchema, request.body);
      const [row] = await db
        .insert(breeds)
        .values({ ...input, orgId: user.orgId, isCommon: false, operator: operatorOf(user) })
        .returning();
      await logChange(db, request, {
        function: 'breed.create',
        operation: { key: 'createBreed', params: {} },
        remark: input.name,
      });
      return ok(request, reply, present(row!), 'admin.saved');
    });

    app.put('/breed/update', async (request, reply) => {
      const { id, ...input } = parseInput(breedInputSchema, request.body);
      if (id === undefined) throw new ApiError(400, 'http.invalidField', { field: 'id' });
      await breedForChange(db, request, id);
      const [row] = await db.update(breeds).set(input).where(eq(breeds.id, id)).returning();
      await logChange(db, request, {
        function: 'breed.update',
        operation: { key: 'updateBreed', params: {} },
        remark: input.name,
      });
      return ok(request, reply, present(row!), 'admin.saved');
    });

    // A breed in use by flocks is kept: their targets and ages would silently disappear.
    app.delete('/breed/delete', async (request, reply) => {
      const { id } = parseInput(idBodySchema, request.body);
      const breed = await breedForChange(db, request, id);
      const [used] = await db.select({ n: count() }).from(flocks).where(eq(flocks.breedId, id));
      if (Number(used?.n ?? 0) > 0)
        throw new ApiError(409, 'admin.breedInUse', { flocks: Number(used?.n) });
      await db.delete(breeds).where(eq(breeds.id, id));
      await logChange(db, request, {
        function: 'breed.delete',
        operation: { key: 'deleteBreed', params: {} },
        remark: breed.name,
      });
      return ok(request, reply, null, 'admin.deleted');
    });

    /** Copies any visible breed (common ones too) into an editable breed of the caller's organisation. */
    app.post('/breed/copy', async (request, reply) => {
      const user = requireRole(request, FARM_ADMIN_ROLES);
      const { id } = parseInput(idBodySchema, request.body);
      const source = await detailOf(db, await visibleBreed(db, user, id));
      const copy = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(breeds)
          .values({
            orgId: user.orgId,
            name: `${source.name} (copy)`,
            code: `${source.code}-COPY`.slice(0, 32),
            factory: source.factory,
            description: source.description,
            isCommon: false,
            operator: operatorOf(user),
          })
          .returning();
        if (source.targets.length)
          await tx
            .insert(breedTargets)
            .values(source.targets.map((t) => ({ ...t, breedId: row!.id })));
        if (source.immune.length)
          await tx
            .insert(immuneReminders)
            .values(source.immune.map((r) => ({ ...r, breedId: row!.id })));
        return row!;
      });
      await logChange(db, request, {
        function: 'breed.copy',
        operation: { key: 'copyBreed', params: {} },
        remark: source.name,
      });
      return ok(request, reply, present(copy), 'admin.saved');
    });

    /** Replaces the whole per-age grid (the console sends the grid as edited or pasted). */
    app.put('/breed/saveTargets', async (request, reply) => {
      const input = parseInput(breedTargetsSchema, request.body);
      const breed = await breedForChange(db, request, input.breedId);
      await db.transaction(async (tx) => {
        await tx.delete(breedTargets).where(eq(breedTargets.breedId, breed.id));
        if (input.rows.length)
          await tx
            .insert(breedTargets)
            .values(input.rows.map((r) => ({ ...r, breedId: breed.id })));
      });
      await logChange(db, request, {
        function: 'breed.saveTargets',
        operation: { key: 'saveTargets', params: {} },
        remark: `${breed.name}: ${input.rows.length}`,
      });
      return ok(request, reply, null, 'admin.saved');
    });

    app.put('/breed/saveImmune', async (request, reply) => {
      const input = parseInput(immuneRemindersSchema, request.body);
      const breed = await breedForChange(db, request, input.breedId);
      await db.transaction(async (tx) => {
        await tx.delete(immuneReminders).where(eq(immuneReminders.breedId, breed.id));
        if (input.rows.length)
          await tx
            .insert(immuneReminders)
            .values(input.rows.map((r) => ({ ...r, breedId: breed.id })));
      });
      await logChange(db, request, {
        function: 'breed.saveImmune',
        operation: { key: 'saveImmune', params: {} },
        remark: `${breed.name}: ${input.rows.length}`,
      });
      return ok(request, reply, null, 'admin.saved');
    });
  };
}
