import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { kioskCreateSchema, kioskRevokeSchema } from '../../../src/contract/wallKiosk';
import { writeOperationLog } from '../../oplog';
import { sessionOf, sourceOf, type AppContext } from '../../http/context';
import { ok, parseInput } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { createKiosk, listKiosks, revokeKiosk } from '../kiosk';

/** Kiosk links are as powerful as an administrator's view of the wall: administrators only. */
function requireAdministrator(request: FastifyRequest) {
  const { user } = sessionOf(request);
  if (user.roleKey !== 'administrator') throw new ApiError(403, 'auth.forbidden');
  return user;
}

/**
 * Creating, listing and revoking the wall's kiosk links. Signed-in administrators
 * only (the app's session hook runs first); every change goes to the operation log, and a
 * revocation closes the link's live sockets at once, on every server process.
 */
export function kioskRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database } = ctx;
  return async (app) => {
    app.get('/wall/kiosk/list', async (request, reply) => {
      requireAdministrator(request);
      return ok(request, reply, await listKiosks(database));
    });

    app.post('/wall/kiosk/create', async (request, reply) => {
      const user = requireAdministrator(request);
      const input = parseInput(kioskCreateSchema, request.body);
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
    });

    app.post('/wall/kiosk/revoke', async (request, reply) => {
      const user = requireAdministrator(request);
      const { id } = parseInput(kioskRevokeSchema, request.body);
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
    });
  };
}
