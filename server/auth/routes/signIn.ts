import { eq, sql } from 'drizzle-orm';
import {
  captchaSchema,
  loginRequestSchema,
  loginResponseSchema,
  type LoginResponse,
} from '../../../src/contract/auth';
import { consumeCaptcha, issueCaptcha } from '../captcha';
import { verifyPassword } from '../password';
import { createSession, recordLogin, revokeSession } from '../sessions';
import { clearFailures, recordFailure, throttledForMinutes } from '../throttle';
import { users } from '../../db/schema';
import { writeOperationLog } from '../../oplog';
import type { AppContext } from '../../http/context';
import { sourceOf } from '../../http/context';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { ANY_ROLE, answers, done, type RoutePlugin } from '../../http/routeSchema';

export function signInRoutes(ctx: AppContext): RoutePlugin {
  const { db } = ctx.database;
  return async (app) => {
    app.post(
      '/getCode',
      {
        schema: {
          summary: 'A new captcha image and the id to answer it with',
          response: answers(captchaSchema),
        },
        config: { public: true },
      },
      async (request, reply) => {
        return ok(request, reply, await issueCaptcha(db));
      },
    );

    app.post(
      '/login',
      {
        schema: {
          summary:
            'Signs in with user name and password (and the captcha when on), answering a session token',
          body: loginRequestSchema,
          response: answers(loginResponseSchema),
        },
        config: { public: true },
      },
      async (request, reply) => {
        const input = request.body;
        const address = request.ip;
        const minutes = await throttledForMinutes(db, input.username, address);
        if (minutes > 0) throw new ApiError(429, 'login.throttled', { minutes });

        // The captcha is consumed first: with captchas on, a guess costs a fresh captcha.
        const captchaOk =
          !ctx.config.captcha || (await consumeCaptcha(db, input.codeId, input.code));
        if (!captchaOk) {
          await recordFailure(db, input.username, address);
          throw new ApiError(401, 'login.captchaWrong');
        }

        const [user] = await db
          .select({
            id: users.id,
            username: users.username,
            realName: users.realName,
            passwordHash: users.passwordHash,
          })
          .from(users)
          .where(eq(sql`lower(${users.username})`, input.username.toLowerCase()))
          .limit(1);
        // Unknown user and wrong password take the same path and about the same time.
        const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
        if (!user || !passwordOk) {
          await recordFailure(db, input.username, address);
          throw new ApiError(401, 'login.failed');
        }

        await clearFailures(db, input.username, address, user.id);
        const source = sourceOf(request);
        const token = await createSession(db, user.id, source);
        await recordLogin(db, user.id);
        await writeOperationLog(db, {
          operator: { id: user.id, name: user.realName || user.username },
          function: 'login',
          operation: { key: 'signIn', params: {} },
          remark: address,
          source,
        });
        const data: LoginResponse = { userId: user.id, token };
        return ok(request, reply, data);
      },
    );

    app.post(
      '/logout',
      {
        schema: { summary: 'Signs out: the session token stops working', response: done },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        // The guard has already checked the token; logging out twice is not an error.
        if (request.session) {
          await revokeSession(db, request.session.tokenHash);
          void ctx.events.emit('sessionEnded', request.session.tokenHash);
        }
        return ok(request, reply, null, 'logout.done');
      },
    );
  };
}
