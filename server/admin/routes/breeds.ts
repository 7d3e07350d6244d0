import { and, asc, count, eq, ilike, or } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Db } from '../../db/client';
import { breedTargets, breeds, flocks, immuneReminders } from '../../db/schema';
import { sessionOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { answers, done, type RoutePlugin } from '../../http/routeSchema';
import {
  breedInputSchema,
  breedListQuerySchema,
  breedTargetsSchema,
  idBodySchema,
  immuneRemindersSchema,
  type BreedDetail,
  type BreedRow,
} from '../../../src/contract/admin';
import { breedDetailSchema, breedRowSchema } from '../../../src/contract/adminAnswers';
import { pagedSchema } from '../../../src/contract/paged';
import { containsPattern, logChange } from '../access';
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

export function breedRoutes(ctx: AppContext): RoutePlugin {
  const { db } = ctx.database;
  const operatorOf = (u: SessionUser) => u.realName || u.username;
  /** Breeds are the farm administrators'; which ones each sees and changes is its scope's. */
  const BREEDS = FARM_ADMIN_ROLES;
  return async (app) => {
    app.get(
      '/breed/list',
      {
        schema: {
          summary: "A page of the breeds the caller sees: the common ones and its organisation's",
          querystring: breedListQuerySchema,
          response: answers(pagedSchema(breedRowSchema)),
        },
        config: { roles: BREEDS },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const q = request.query;
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
      },
    );

    app.get(
      '/breed/get',
      {
        schema: {
          summary: 'A breed with its per-age targets and immunisation reminders',
          querystring: idBodySchema,
          response: answers(breedDetailSchema),
        },
        config: { roles: BREEDS },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const { id } = request.query;
        return ok(request, reply, await detailOf(db, await visibleBreed(db, user, id)));
      },
    );

    app.post(
      '/breed/create',
      {
        schema: {
          summary: "Creates a breed of the caller's organisation",
          body: breedInputSchema,
          response: answers(breedRowSchema),
        },
        config: { roles: BREEDS },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const { id: _ignored, ...input } = request.body;
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
      },
    );

    app.put(
      '/breed/update',
      {
        schema: {
          summary:
            "Changes a breed of the caller's organisation (common breeds are copied instead)",
          body: breedInputSchema,
          response: answers(breedRowSchema),
        },
        config: { roles: BREEDS },
      },
      async (request, reply) => {
        const { id, ...input } = request.body;
        if (id === undefined) throw new ApiError(400, 'http.invalidField', { field: 'id' });
        await breedForChange(db, request, id);
        const [row] = await db.update(breeds).set(input).where(eq(breeds.id, id)).returning();
        await logChange(db, request, {
          function: 'breed.update',
          operation: { key: 'updateBreed', params: {} },
          remark: input.name,
        });
        return ok(request, reply, present(row!), 'admin.saved');
      },
    );

    // A breed in use by flocks is kept: their targets and ages would silently disappear.
    app.delete(
      '/breed/delete',
      {
        schema: { summary: 'Deletes a breed no flock uses', body: idBodySchema, response: done },
        config: { roles: BREEDS },
      },
      async (request, reply) => {
        const { id } = request.body;
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
      },
    );

    /** Copies any visible breed (common ones too) into an editable breed of the caller's organisation. */
    app.post(
      '/breed/copy',
      {
        schema: {
          summary:
            "Copies a visible breed, targets and reminders, into an editable breed of the caller's organisation",
          body: idBodySchema,
          response: answers(breedRowSchema),
        },
        config: { roles: BREEDS },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const { id } = request.body;
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
      },
    );

    /** Replaces the whole per-age grid (the console sends the grid as edited or pasted). */
    app.put(
      '/breed/saveTargets',
      {
        schema: {
          summary: "Replaces a breed's per-age targets",
          body: breedTargetsSchema,
          response: done,
        },
        config: { roles: BREEDS },
      },
      async (request, reply) => {
        const input = request.body;
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
      },
    );

    app.put(
      '/breed/saveImmune',
      {
        schema: {
          summary: "Replaces a breed's immunisation reminders",
          body: immuneRemindersSchema,
          response: done,
        },
        config: { roles: BREEDS },
      },
      async (request, reply) => {
        const input = request.body;
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
      },
    );
  };
}
