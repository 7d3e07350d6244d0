import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import { desc } from 'drizzle-orm';
import { upgradeFiles } from '../db/upgradeSchema';
import { sessionOf, type AppContext } from '../http/context';
import { ok, parseInput } from '../http/envelope';
import { ApiError } from '../http/errors';
import { UPGRADE_FILE_MAX_BYTES, upgradeUploadQuerySchema } from '../../src/contract/upgrade';
import { logChange, requireRole } from '../admin/access';
import { UpgradeFileStore } from './files';

const ADMIN = ['administrator'] as const;

/** Gateway upgrade files: administrators upload them and list them. */
export function upgradeRoutes(ctx: AppContext): FastifyPluginAsync {
  const store = new UpgradeFileStore(ctx.config.dataDir);
  return async (app) => {
    // One file per request. busboy stops reading one byte past the limit and marks the
    // stream truncated, so an oversized upload is never held whole (→ 413 below).
    await app.register(multipart, {
      limits: { fileSize: UPGRADE_FILE_MAX_BYTES + 1, files: 1, fields: 4, parts: 5 },
    });

    app.get('/upgrade/files', async (request, reply) => {
      requireRole(request, ADMIN);
      const rows = await ctx.database.db
        .select()
        .from(upgradeFiles)
        .orderBy(desc(upgradeFiles.uploadedAt));
      return ok(
        request,
        reply,
        rows.map((r) => ({
          sha256: r.sha256,
          version: r.version,
          fileName: r.fileName,
          size: r.size,
          uploadedAt: r.uploadedAt.toISOString(),
        })),
      );
    });

    /** multipart/form-data with one file field; `?version=` names what the file installs. */
    app.post('/upgrade/uploadFile', async (request, reply) => {
      requireRole(request, ADMIN);
      const { version } = parseInput(upgradeUploadQuerySchema, request.query);
      if (!request.isMultipart()) throw new ApiError(400, 'upgrade.fileMissing');
      const file = await request.file();
      if (!file) throw new ApiError(400, 'upgrade.fileMissing');
      // Any file name is accepted: the product requires no suffix, and the bytes are what count.
      const stored = await store.store(file.file as AsyncIterable<Buffer>, {
        version,
        fileName: file.filename.slice(0, 200),
      });
      if (!stored.ok) {
        if (stored.reason === 'tooLarge') throw new ApiError(413, 'upgrade.fileTooLarge');
        throw new ApiError(400, 'upgrade.fileEmpty');
      }
      const f = stored.file;
      await ctx.database.db
        .insert(upgradeFiles)
        .values({
          sha256: f.sha256,
          version: f.version,
          fileName: f.fileName,
          size: f.size,
          uploadedBy: sessionOf(request).user.id,
        })
        .onConflictDoUpdate({
          target: upgradeFiles.sha256,
          set: { version: f.version, fileName: f.fileName, uploadedAt: new Date() },
        });
      await logChange(ctx.database.db, request, {
        function: 'upgrade.uploadFile',
        operation: { key: 'uploadUpgradeFile', params: {} },
        remark: `${version} ${stored.file.sha256.slice(0, 12)}`,
      });
      return ok(request, reply, stored.file, 'upgrade.saved');
    });
  };
}
