import type { AppContext } from '../../http/context';
import type { RoutePlugin } from '../../http/routeSchema';
import { accountRoutes } from './account';
import { signInRoutes } from './signIn';

/** Signing in and out, the captcha, and the signed-in user's own account. */
export function authRoutes(ctx: AppContext): RoutePlugin {
  return async (app) => {
    await app.register(signInRoutes(ctx));
    await app.register(accountRoutes(ctx));
  };
}
