import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../http/context';
import { accountRoutes } from './account';
import { signInRoutes } from './signIn';

/** Signing in and out, the captcha, and the signed-in user's own account. */
export function authRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    await app.register(signInRoutes(ctx));
    await app.register(accountRoutes(ctx));
  };
}
