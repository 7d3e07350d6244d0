import {
  kioskCreatedSchema,
  kioskCreateSchema,
  kioskLayoutSchema,
  kioskLinkSchema,
  kioskListSchema,
  kioskRevokeSchema,
  kioskSelfSchema,
} from '../../../src/contract/wallKiosk';
import type { WallDisplay } from '../../../src/contract/wallLayout';
import type { RoleKey } from '../../../src/contract/roles';
import { writeOperationLog } from '../../oplog';
import { sessionOf, sourceOf, tokenOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { answers, done, type RoutePlugin } from '../../http/routeSchema';
import {
  createKiosk,
  findKiosk,
  isKioskToken,
  kioskSelf,
  listKiosks,
  revokeKiosk,
  setKioskDisplay,
} from '../kiosk';

/** Kiosk links are as powerful as an administrator's view of the wall: administrators only. */
const KIOSK_ADMINS: readonly RoleKey[] = ['administrator'];

/** The layout and tour as the operation log keeps them: "left counters,night | right alarms; tour 10 s overview,worstFarms". */
function displayText({ layout, tour }: WallDisplay): string {
  const panels = `left ${layout.left.join(',') || '-'} | right ${layout.right.join(',') || '-'}`;
  return tour ? `${panels}; tour ${tour.seconds} s ${tour.stops.join(',')}` : `${panels}; no tour`;
}

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
          display: { layout: input.layout, tour: input.tour },
        });
        if (!created) throw new ApiError(400, 'wall.kioskFarmUnknown');
        const scope = created.link.allFarms
          ? 'all farms'
          : created.link.farms.map((f) => f.name).join(', ');
        await writeOperationLog(database.db, {
          operator,
          function: 'wall.kioskCreate',
          operation: { key: 'createKioskLink', params: {} },
          remark: `${created.link.name} (${scope}; ${displayText(created.link)})`,
          source: sourceOf(request),
        });
        return ok(request, reply, created, 'wall.kioskCreated');
      },
    );

    app.post(
      '/wall/kiosk/layout',
      {
        schema: {
          summary: "Changes a kiosk link's panels and tour; its scope stays as it was",
          body: kioskLayoutSchema,
          response: answers(kioskLinkSchema),
        },
        config: { roles: KIOSK_ADMINS },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const { id, layout, tour } = request.body;
        const link = await setKioskDisplay(database, id, { layout, tour });
        if (!link) throw new ApiError(404, 'wall.kioskNotFound');
        await writeOperationLog(database.db, {
          operator: { id: user.id, name: user.realName || user.username },
          function: 'wall.kiosk.layout',
          operation: { key: 'editKioskLayout', params: {} },
          remark: `${link.name} (${displayText(link)})`,
          source: sourceOf(request),
        });
        return ok(request, reply, link, 'wall.kioskLayoutSaved');
      },
    );

    // A kiosk token, and only a kiosk token, reads what its own link shows. Signed-in users
    // have no link: their wall keeps the default layout.
    app.get(
      '/wall/kiosk/self',
      {
        schema: {
          summary: "A kiosk link's own panels and tour, for the wall it opens",
          response: answers(kioskSelfSchema),
        },
        config: { public: true },
      },
      async (request, reply) => {
        const token = tokenOf(request);
        if (!token) throw new ApiError(401, 'auth.required');
        if (!isKioskToken(token)) throw new ApiError(403, 'wall.kioskOnly');
        const kiosk = await findKiosk(database, token);
        const self = kiosk && (await kioskSelf(database, kiosk.id));
        if (!self) throw new ApiError(401, 'wall.kioskEnded');
        return ok(request, reply, self);
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
