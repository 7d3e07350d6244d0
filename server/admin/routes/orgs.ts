import multipart from '@fastify/multipart';
import { asc, count, eq, ilike, or } from 'drizzle-orm';
import { farms, organizations, users } from '../../db/schema';
import { sessionOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { ANY_ROLE, answers, done, type RoutePlugin } from '../../http/routeSchema';
import {
  idBodySchema,
  LOGO_MAX_BYTES,
  orgInputSchema,
  orgPatchSchema,
  orgListQuerySchema,
  logoQuerySchema,
  type OrgRow,
} from '../../../src/contract/admin';
import {
  logoUploadedSchema,
  orgListAllSchema,
  orgLogoSchema,
  orgRowSchema,
} from '../../../src/contract/adminAnswers';
import { pagedSchema } from '../../../src/contract/paged';
import { conflictAs, containsPattern, logChange, managesAll } from '../access';

/** The eight bytes every PNG file starts with (the PNG signature). */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isPng(bytes: Buffer): boolean {
  return bytes.length >= PNG_SIGNATURE.length && bytes.subarray(0, 8).equals(PNG_SIGNATURE);
}

/** Organisations are the administrators' to manage. */
const ADMIN = ['administrator'] as const;

export function orgRoutes(ctx: AppContext): RoutePlugin {
  const { db } = ctx.database;
  const present = (o: typeof organizations.$inferSelect): OrgRow => ({
    id: o.id,
    name: o.name,
    code: o.code,
    principal: o.principal,
    officeTel: o.officeTel,
    mobile: o.mobile,
    fax: o.fax,
    email: o.email,
    remark: o.remark,
    mapType: o.mapType === '2' ? '2' : '1',
    hasLogo: o.logo !== null,
    createdAt: o.createdAt.toISOString(),
  });

  return async (app) => {
    // Only this plugin parses multipart bodies. One file, at most 2 MB + nothing else: the
    // limit makes busboy stop reading at 2 MB and mark the stream truncated (→ 413 below).
    await app.register(multipart, {
      limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 4, parts: 5 },
    });

    app.get(
      '/org/list',
      {
        schema: {
          summary: 'A page of the organisations',
          querystring: orgListQuerySchema,
          response: answers(pagedSchema(orgRowSchema)),
        },
        config: { roles: ADMIN },
      },
      async (request, reply) => {
        const q = request.query;
        const where = q.keyword
          ? or(
              ilike(organizations.name, containsPattern(q.keyword)),
              ilike(organizations.code, containsPattern(q.keyword)),
            )
          : undefined;
        const [rows, [total]] = await Promise.all([
          db
            .select()
            .from(organizations)
            .where(where)
            .orderBy(asc(organizations.id))
            .limit(q.size)
            .offset((q.page - 1) * q.size),
          db.select({ n: count() }).from(organizations).where(where),
        ]);
        return ok(request, reply, { rows: rows.map(present), total: Number(total?.n ?? 0) });
      },
    );

    // Administrators choose among all; everyone else only ever has its own organisation.
    app.get(
      '/org/listAll',
      {
        schema: {
          summary:
            'The organisations the caller may choose among (its own, or all for an administrator)',
          response: answers(orgListAllSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const rows = await db
          .select({ id: organizations.id, name: organizations.name })
          .from(organizations)
          .where(managesAll(user) ? undefined : eq(organizations.id, user.orgId ?? -1))
          .orderBy(asc(organizations.id));
        return ok(request, reply, rows);
      },
    );

    app.post(
      '/org/create',
      {
        schema: {
          summary: 'Creates an organisation',
          body: orgInputSchema,
          response: answers(orgRowSchema),
        },
        config: { roles: ADMIN },
      },
      async (request, reply) => {
        const { id: _ignored, ...input } = request.body;
        const [row] = await db
          .insert(organizations)
          .values(input)
          .returning()
          .catch(conflictAs('admin.codeTaken'));
        await logChange(db, request, {
          function: 'org.create',
          operation: { key: 'createOrganisation', params: {} },
          remark: input.name,
        });
        return ok(request, reply, present(row!), 'admin.saved');
      },
    );

    app.put(
      '/org/update',
      {
        schema: {
          summary: 'Changes an organisation; fields not sent keep their value',
          body: orgPatchSchema,
          response: answers(orgRowSchema),
        },
        config: { roles: ADMIN },
      },
      async (request, reply) => {
        // A field the caller did not send keeps its value: the schema has no defaults here.
        const { id, ...input } = request.body;
        const [row] = await db
          .update(organizations)
          .set({ ...input, updatedAt: new Date() })
          .where(eq(organizations.id, id))
          .returning()
          .catch(conflictAs('admin.codeTaken'));
        if (!row) throw new ApiError(404, 'admin.notFound');
        await logChange(db, request, {
          function: 'org.update',
          operation: { key: 'updateOrganisation', params: {} },
          remark: row.name,
        });
        return ok(request, reply, present(row), 'admin.saved');
      },
    );

    // Deleting an organisation would cascade to its whole farm tree, houses and readings:
    // refused while anything hangs off it, so one click never wipes a company's history.
    app.delete(
      '/org/delete',
      {
        schema: {
          summary: 'Deletes an organisation that has no farms and no users',
          body: idBodySchema,
          response: done,
        },
        config: { roles: ADMIN },
      },
      async (request, reply) => {
        const { id } = request.body;
        const [org] = await db
          .select({ name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, id));
        if (!org) throw new ApiError(404, 'admin.notFound');
        const [[f], [u]] = await Promise.all([
          db.select({ n: count() }).from(farms).where(eq(farms.orgId, id)),
          db.select({ n: count() }).from(users).where(eq(users.orgId, id)),
        ]);
        const farmCount = Number(f?.n ?? 0);
        const userCount = Number(u?.n ?? 0);
        if (farmCount + userCount > 0)
          throw new ApiError(409, 'admin.orgHasChildren', { farms: farmCount, users: userCount });
        await db.delete(organizations).where(eq(organizations.id, id));
        await logChange(db, request, {
          function: 'org.delete',
          operation: { key: 'deleteOrganisation', params: {} },
          remark: org.name,
        });
        return ok(request, reply, null, 'admin.deleted');
      },
    );

    /** The logo the top bar shows: the caller's organisation (administrators may name one). */
    app.get(
      '/org/getLogo',
      {
        schema: {
          summary: "The logo of the caller's organisation as base64 ('' when it has none)",
          querystring: logoQuerySchema,
          response: answers(orgLogoSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const { id } = request.query;
        const orgId = managesAll(user) && id !== undefined ? id : user.orgId;
        if (orgId === null) return ok(request, reply, '');
        const [row] = await db
          .select({ logo: organizations.logo })
          .from(organizations)
          .where(eq(organizations.id, orgId));
        return ok(request, reply, row?.logo ? row.logo.toString('base64') : '');
      },
    );

    /** multipart/form-data with one file field; `?id=` names the organisation. */
    app.post(
      '/org/uploadLogo',
      {
        schema: {
          summary: "Sets an organisation's logo: one PNG file of at most 2 MB",
          querystring: idBodySchema,
          consumes: ['multipart/form-data'],
          response: answers(logoUploadedSchema),
        },
        config: { roles: ADMIN },
      },
      async (request, reply) => {
        const { id } = request.query;
        if (!request.isMultipart()) throw new ApiError(400, 'admin.logoMissing');
        const file = await request.file();
        if (!file) throw new ApiError(400, 'admin.logoMissing');
        // Counted while streaming: nothing past the limit is ever held in memory.
        const chunks: Buffer[] = [];
        let bytes = 0;
        for await (const chunk of file.file) {
          bytes += (chunk as Buffer).length;
          if (bytes > LOGO_MAX_BYTES) break;
          chunks.push(chunk as Buffer);
        }
        if (file.file.truncated || bytes > LOGO_MAX_BYTES)
          throw new ApiError(413, 'admin.logoTooLarge');
        const logo = Buffer.concat(chunks);
        // The type is what the bytes say; the file name and the part's Content-Type are ignored.
        if (!isPng(logo)) throw new ApiError(400, 'admin.logoNotPng');
        const [row] = await db
          .update(organizations)
          .set({ logo, updatedAt: new Date() })
          .where(eq(organizations.id, id))
          .returning({ name: organizations.name });
        if (!row) throw new ApiError(404, 'admin.notFound');
        await logChange(db, request, {
          function: 'org.uploadLogo',
          operation: { key: 'uploadLogo', params: {} },
          remark: row.name,
        });
        return ok(request, reply, { bytes: logo.length }, 'admin.saved');
      },
    );
  };
}
