import multipart from '@fastify/multipart';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { gatewayCommands } from '../db/envcontrolSchema';
import { gatewayUpgrades, upgradeFiles } from '../db/upgradeSchema';
import { sessionOf, sourceOf, tokenOf, type AppContext } from '../http/context';
import { localeOf, ok } from '../http/envelope';
import { ApiError } from '../http/errors';
import { ANY_ROLE, answers, fileAnswer, type RoutePlugin } from '../http/routeSchema';
import { gatewayTypeName } from '../../src/contract/gatewayTypes';
import {
  fileFitsType,
  hasSuffix,
  UPGRADE_FILE_MAX_BYTES,
  deleteUpgradeFileSchema,
  sendUpgradeSchema,
  upgradeDownloadParamsSchema,
  upgradeFileNameSchema,
  upgradeFileSchema,
  upgradeUploadQuerySchema,
  withoutSuffix,
} from '../../src/contract/upgrade';
import {
  upgradeFileDeletedSchema,
  upgradeFileListSchema,
  upgradeSentSchema,
} from '../../src/contract/envcontrolAnswers';
import { logChange } from '../admin/access';
import { scopeOf } from '../auth/scope';
import { housesInScope } from '../envcontrol/houses';
import { canSend, DEFAULT_EXPIRY_SECONDS } from '../envcontrol/rules';
import { Refusal } from '../refusal';
import { claimDownload, queueUpgrade, type UpgradeTarget } from './commands';
import { DRAIN_AFTER_413_BYTES, discard, drainRequest } from './drain';
import { UpgradeFileStore } from './files';

/** Upgrade files are firmware for every organisation's gateways: only administrators keep them. */
const FILE_KEEPERS = ['administrator'] as const;

/** Why a download was refused, as the gateway's log would want it (no detail for strangers). */
const DOWNLOAD_REFUSED = {
  unknown: 'upgrade.linkInvalid',
  used: 'upgrade.linkUsed',
  expired: 'upgrade.linkExpired',
  finished: 'upgrade.linkInvalid',
} as const;

/**
 * A part-file untouched this long belongs to no upload (one in progress writes every moment),
 * and the sweep looks this often.
 */
const PART_FILE_MAX_AGE_MS = 15 * 60 * 1000;
const PART_FILE_SWEEP_EVERY_MS = 5 * 60 * 1000;

/**
 * Gateway upgrade files: administrators upload them and list them; remote configurers send
 * one to gateways of their scope; a gateway downloads it with its single-use link.
 */
export function upgradeRoutes(ctx: AppContext): RoutePlugin {
  const store = new UpgradeFileStore(ctx.config.dataDir);
  /** The stored files, newest first, as the upload list and the upgrade dialog show them. */
  const listFiles = async () =>
    (await ctx.database.db.select().from(upgradeFiles).orderBy(desc(upgradeFiles.uploadedAt))).map(
      (r) => ({
        sha256: r.sha256,
        version: r.version,
        fileName: r.fileName,
        size: r.size,
        typeKeys: r.typeKeys,
        uploadedAt: r.uploadedAt.toISOString(),
      }),
    );
  return async (app) => {
    // Part-files a dead process left behind: at start, then now and then.
    const sweep = () =>
      store
        .sweepPartFiles(PART_FILE_MAX_AGE_MS)
        .catch((error: unknown) => app.log.error({ err: error }, 'upgrade part-file sweep failed'));
    await sweep();
    const sweeper = setInterval(() => void sweep(), PART_FILE_SWEEP_EVERY_MS).unref();
    app.addHook('onClose', async () => clearInterval(sweeper));
    // One file per request. busboy stops reading one byte past the limit and marks the
    // stream truncated, so an oversized upload is never held whole (→ 413 below).
    await app.register(multipart, {
      limits: { fileSize: UPGRADE_FILE_MAX_BYTES + 1, files: 1, fields: 4, parts: 5 },
    });

    /** The files a manager may send, for the upgrade dialog (every role may read the list). */
    app.get(
      '/upgrade/choices',
      {
        schema: {
          summary: 'The stored upgrade files a gateway may be sent, newest first',
          response: answers(upgradeFileListSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => ok(request, reply, await listFiles()),
    );

    /**
     * Sends a stored file to the gateways of these houses. A gateway that already runs the
     * file's version is left alone; when every one does, "No updates detected" (409).
     */
    app.post(
      '/upgrade/send',
      {
        schema: {
          summary:
            'Sends a stored upgrade file to the gateways of these houses (409 when all run its version)',
          body: sendUpgradeSchema,
          response: answers(upgradeSentSchema),
        },
        // Sending also needs the user's remote-configuration flag: checked below, as it is
        // granted per user, not per role.
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const body = request.body;
        const { user } = sessionOf(request);
        if (!canSend(user)) throw new Refusal('forbidden', 'envcontrol.noRemoteConfig');
        const ids = [...new Set(body.houseIds)];
        const houses = await housesInScope(ctx.database, await scopeOf(ctx.database.db, user), ids);
        // A house outside the caller's scope answers like one that does not exist.
        if (houses.length !== ids.length) throw new Refusal('notFound', 'http.notFound');
        const [file] = await ctx.database.db
          .select()
          .from(upgradeFiles)
          .where(eq(upgradeFiles.sha256, body.sha256));
        if (!file) throw new ApiError(404, 'upgrade.fileNotFound');
        const targets: UpgradeTarget[] = [];
        const upToDate: number[] = [];
        for (const house of houses) {
          if (house.gatewayId === null) throw new Refusal('invalid', 'envcontrol.noGateway');
          // Firmware of one model bricks another: nothing is sent unless every gateway fits.
          const typeKey = house.typeKey === null ? null : Number(house.typeKey);
          if (!fileFitsType(file, typeKey))
            throw new Refusal('invalid', 'upgrade.wrongType', {
              house: house.houseName,
              model: typeKey === null ? '—' : gatewayTypeName(typeKey, localeOf(request)),
            });
          if (house.version === file.version) {
            upToDate.push(Number(house.houseId));
            continue;
          }
          targets.push({
            houseId: Number(house.houseId),
            houseName: house.houseName,
            gatewayId: Number(house.gatewayId),
            networkId: house.networkId ?? '',
            version: house.version ?? '',
          });
        }
        if (targets.length === 0) throw new ApiError(409, 'upgrade.noUpdates');
        const commands = await queueUpgrade(ctx.database, ctx.events, {
          targets,
          file: { sha256: file.sha256, version: file.version, fileName: file.fileName },
          expiresAt: new Date(Date.now() + DEFAULT_EXPIRY_SECONDS * 1000),
          operator: { id: user.id, name: user.realName || user.username },
          source: sourceOf(request),
        });
        return ok(request, reply, { commands, upToDate }, 'upgrade.sent');
      },
    );

    /**
     * A gateway fetches its file: the link's token (single use, minutes) and its own device
     * token (`Authorization: Bearer`), as for readings over HTTP. Another gateway's link, a
     * spent one and an expired one are refused.
     */
    app.get(
      '/upgrade/download/:networkId/:token',
      {
        schema: {
          summary:
            'A gateway downloads its upgrade file with its single-use link and its device token',
          params: upgradeDownloadParamsSchema,
          response: fileAnswer(['application/octet-stream'], 'The upgrade file'),
        },
        // No user session: the gateway's own token is checked below.
        config: { public: true },
      },
      async (request, reply) => {
        const { networkId, token } = request.params;
        const gateway = await ctx.ingest.directory.verifyToken(networkId, tokenOf(request) ?? '');
        if (!gateway) throw new ApiError(401, 'ingest.badToken');
        const claim = await claimDownload(ctx.database.db, gateway.gatewayId, token);
        if (!claim.ok)
          throw new ApiError(
            claim.reason === 'unknown' ? 404 : 403,
            DOWNLOAD_REFUSED[claim.reason],
          );
        const bytes = await store.bytes(claim.sha256);
        if (!bytes) throw new ApiError(404, 'upgrade.fileNotFound');
        return reply
          .header('content-type', 'application/octet-stream')
          .header('cache-control', 'no-store')
          .header('x-content-sha256', claim.sha256)
          .send(bytes);
      },
    );

    app.get(
      '/upgrade/files',
      {
        schema: {
          summary: 'The stored upgrade files, newest first, for their administration',
          response: answers(upgradeFileListSchema),
        },
        config: { roles: FILE_KEEPERS },
      },
      async (request, reply) => ok(request, reply, await listFiles()),
    );

    /**
     * multipart/form-data with one file field; `?version=` names what the file installs and
     * `?typeKeys=` the gateway types it is for.
     */
    app.post(
      '/upgrade/uploadFile',
      {
        schema: {
          summary:
            'Stores an upgrade file (one multipart file field) with the version it installs and its gateway types',
          querystring: upgradeUploadQuerySchema,
          consumes: ['multipart/form-data'],
          response: answers(upgradeFileSchema),
        },
        config: { roles: FILE_KEEPERS, operating: true },
      },
      async (request, reply) => {
        const { version, typeKeys } = request.query;
        if (!request.isMultipart()) throw new ApiError(400, 'upgrade.fileMissing');
        const file = await request.file();
        if (!file) throw new ApiError(400, 'upgrade.fileMissing');
        // The name is checked before a byte is stored: control characters (a NUL cannot even be
        // stored) and path separators are refused, and an upgrade file has no suffix (the gateway
        // installs it under the name it was given): `gw.bin` is refused. The stream is drained
        // so the client gets the answer, not a reset connection.
        const name = upgradeFileNameSchema.safeParse(file.filename);
        if (!name.success) {
          await discard(file.file);
          throw new ApiError(400, 'upgrade.fileNameInvalid');
        }
        const fileName = name.data;
        if (hasSuffix(fileName)) {
          await discard(file.file);
          throw new ApiError(400, 'upgrade.fileSuffix', {
            name: fileName,
            bare: withoutSuffix(fileName),
          });
        }
        const stored = await store.store(file.file as AsyncIterable<Buffer>, {
          version,
          fileName,
          typeKeys,
        });
        if (!stored.ok) {
          if (stored.reason === 'tooLarge') {
            // The rest of the body is still on the way: read and dropped, so the connection is
            // at its next request when the 413 goes out; past the bound the answer closes it.
            if (!(await drainRequest(request.raw, DRAIN_AFTER_413_BYTES)))
              void reply.header('connection', 'close');
            throw new ApiError(413, 'upgrade.fileTooLarge');
          }
          throw new ApiError(400, 'upgrade.fileEmpty');
        }
        const f = stored.file;
        try {
          await ctx.database.db
            .insert(upgradeFiles)
            .values({
              sha256: f.sha256,
              version: f.version,
              fileName: f.fileName,
              size: f.size,
              typeKeys,
              uploadedBy: sessionOf(request).user.id,
            })
            .onConflictDoUpdate({
              target: upgradeFiles.sha256,
              set: { version: f.version, fileName: f.fileName, typeKeys, uploadedAt: new Date() },
            });
        } catch (error) {
          // No bytes without their row: a gateway could never be sent them and nothing would
          // ever delete them. The same bytes stored before under a row stay.
          const listed = await ctx.database.db
            .select({ sha256: upgradeFiles.sha256 })
            .from(upgradeFiles)
            .where(eq(upgradeFiles.sha256, f.sha256))
            .then(
              (rows) => rows.length > 0,
              () => true,
            );
          if (!listed) await store.remove(f.sha256);
          throw error;
        }
        await logChange(ctx.database.db, request, {
          function: 'upgrade.uploadFile',
          operation: { key: 'uploadUpgradeFile', params: {} },
          remark: `${version} ${stored.file.sha256.slice(0, 12)} ${typeKeys.join(',')}`,
        });
        return ok(request, reply, stored.file, 'upgrade.saved');
      },
    );

    /**
     * Deletes a stored file, its row and its bytes, unless an upgrade that installs it is
     * queued or under way: its gateway may still download it. Finished upgrades keep the file's
     * name and version of their own, so the records still say what was installed. The file's
     * row is locked first: a send that holds it (queueUpgrade) is waited for, and the check
     * that follows, a statement of its own, sees the upgrade it queued.
     */
    app.post(
      '/upgrade/deleteFile',
      {
        schema: {
          summary: 'Deletes a stored upgrade file, unless an upgrade under way installs it',
          body: deleteUpgradeFileSchema,
          response: answers(upgradeFileDeletedSchema),
        },
        config: { roles: FILE_KEEPERS, operating: true },
      },
      async (request, reply) => {
        const { sha256 } = request.body;
        const outcome = await ctx.database.transaction(async ({ db }) => {
          const [file] = await db
            .select({ fileName: upgradeFiles.fileName, version: upgradeFiles.version })
            .from(upgradeFiles)
            .where(eq(upgradeFiles.sha256, sha256))
            .for('update');
          if (!file) return null;
          const [{ installing } = { installing: 0 }] = await db
            .select({ installing: count() })
            .from(gatewayUpgrades)
            .innerJoin(gatewayCommands, eq(gatewayCommands.id, gatewayUpgrades.commandId))
            .where(
              and(
                eq(gatewayUpgrades.sha256, sha256),
                inArray(gatewayCommands.state, ['queued', 'sent']),
              ),
            );
          if (installing === 0)
            await db.delete(upgradeFiles).where(eq(upgradeFiles.sha256, sha256));
          return { ...file, installing };
        });
        if (!outcome) throw new ApiError(404, 'upgrade.fileNotFound');
        if (outcome.installing > 0)
          throw new Refusal('conflict', 'upgrade.fileInUse', { count: outcome.installing });
        await store.remove(sha256);
        await logChange(ctx.database.db, request, {
          function: 'upgrade.deleteFile',
          operation: { key: 'deleteUpgradeFile', params: {} },
          remark: `${outcome.version} ${outcome.fileName} ${sha256.slice(0, 12)}`,
        });
        return ok(request, reply, { sha256 }, 'upgrade.deleted');
      },
    );
  };
}
