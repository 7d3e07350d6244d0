import {
  kioskCreatedSchema,
  kioskCreateSchema,
  kioskListSchema,
  kioskRevokeSchema,
} from '../../../src/contract/wallKiosk';
import type { RoleKey } from '../../../src/contract/roles';
import { writeOperationLog } from '../../oplog';
import { sessionOf, sourceOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { answers, done, type RoutePlugin } from '../../http/routeSchema';
import { createKiosk, listKiosks, revokeKiosk } from '../kiosk';

/** Kiosk links are as powerful as an administrator's view of the wall: administrators only. */
const KIOSK_ADMINS: readonly RoleKey[] = ['administrator'];

/**
 * Creating, listing and revoking the wall's kiosk links. Signed-in administrators
 * only (the app's session hook refuses other roles); every change goes to the operation log,
 * and a revocation closes the link's live sockets at once, on every server process.
 */
export function kioskRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  return async (app) => {
    app.get(
      '/wall/kiosk/list',
      {
        schema: {
          summary: "The wall's kiosk links, without their tokens",
          response: answers(kioskListSchema),
        },
        config: { roles: KIOSK_ADMINS },
      },
      async (request, reply) => ok(request, reply, await listKiosks(database)),
    );

    app.post(
      '/wall/kiosk/create',
      {
        schema: {
          summary: 'Creates a kiosk link showing the wall of every farm or of the farms named',
          body: kioskCreateSchema,
          response: answers(kioskCreatedSchema),
        },
        config: { roles: KIOSK_ADMINS },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const input = request.body;
        const operator = { id: user.id, name: user.realName || user.username };
        const created = await createKiosk(database, {
          name: input.name,
          allFarms: input.allFarms,
          farmIds: input.allFarms ? [] : input.farmIds,
          orgId: user.orgId,
          createdBy: operator,
        });
        if (!created) throw new ApiError(400, 'wall.kioskFarmUnknown');
        const scope = created.link.allFarms
          ? 'all farms'
          : created.link.farms.map((f) => f.name).join(', ');
        await writeOperationLog(database.db, {
          operator,
          function: 'wall.kioskCreate',
          operation: { key: 'createKioskLink', params: {} },
          remark: `${created.link.name} (${scope})`,
          source: sourceOf(request),
        });
        return ok(request, reply, created, 'wall.kioskCreated');
      },
    );

    app.post(
      '/wall/kiosk/revoke',
      {
        schema: {
          summary: 'Revokes a kiosk link and closes the walls open with it',
          body: kioskRevokeSchema,
          response: done,
        },
        config: { roles: KIOSK_ADMINS },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const { id } = request.body;
        const revoked = await revokeKiosk(database, id);
        if (!revoked) throw new ApiError(404, 'wall.kioskNotFound');
        // The hub keeps a kiosk socket in the room of its token hash, like a session's.
        void ctx.events.emit('sessionEnded', revoked.tokenHash);
        await writeOperationLog(database.db, {
          operator: { id: user.id, name: user.realName || user.username },
          function: 'wall.kioskRevoke',
          operation: { key: 'revokeKioskLink', params: {} },
          remark: revoked.name,
          source: sourceOf(request),
        });
        return ok(request, reply, null, 'wall.kioskRevoked');
      },
    );
  };
}
