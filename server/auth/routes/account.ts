import { eq } from 'drizzle-orm';
import {
  currentUserSchema,
  modifyPasswordRequestSchema,
  type CurrentUser,
} from '../../../src/contract/auth';
import { newPasswordSchema } from '../../../src/contract/password';
import { hashPassword, verifyPassword } from '../password';
import { revokeOtherSessions } from '../sessions';
import { users } from '../../db/schema';
import { writeOperationLog } from '../../oplog';
import { sessionOf, sourceOf, type AppContext } from '../../http/context';
import { ok, parseInput } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { ANY_ROLE, answers, done, type RoutePlugin } from '../../http/routeSchema';

export function accountRoutes(ctx: AppContext): RoutePlugin {
  const { db } = ctx.database;
  const edition = ctx.config.edition;
  return async (app) => {
    app.get(
      '/user/getCurrent',
      {
        schema: {
          summary: 'The signed-in user: name, role, permissions and organisation',
          response: answers(currentUserSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const data: CurrentUser = {
          userId: user.id,
          username: user.username,
          name: user.realName || user.username,
          avatar: user.avatar,
          roleKey: user.roleKey,
          canOperate: user.canOperate ? '1' : '0',
          remoteConfigFlag: user.remoteConfig ? '1' : '0',
          mapType: user.mapType,
          orgName: user.orgName,
        };
        return ok(request, reply, data);
      },
    );

    app.put(
      '/user/modifyPwd',
      {
        schema: {
          summary: "Changes the signed-in user's password and ends its other sessions",
          body: modifyPasswordRequestSchema,
          response: done,
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const session = sessionOf(request);
        const input = request.body;
        const newPassword = parseInput(newPasswordSchema(edition), input.newPassword, edition);
        const [row] = await db
          .select({ hash: users.passwordHash })
          .from(users)
          .where(eq(users.id, session.user.id));
        if (!row || !(await verifyPassword(row.hash, input.oldPassword)))
          throw new ApiError(400, 'password.oldWrong');

        await db
          .update(users)
          .set({ passwordHash: await hashPassword(newPassword), updatedAt: new Date() })
          .where(eq(users.id, session.user.id));
        await revokeOtherSessions(db, session.user.id, session.tokenHash);
        void ctx.events.emit('otherSessionsEnded', {
          userId: session.user.id,
          keepTokenHash: session.tokenHash,
        });
        await writeOperationLog(db, {
          operator: { id: session.user.id, name: session.user.realName || session.user.username },
          function: 'user.modifyPwd',
          operation: { key: 'changePassword', params: {} },
          source: sourceOf(request),
        });
        return ok(request, reply, null, 'password.changed');
      },
    );
  };
}
