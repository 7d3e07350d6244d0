import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from './context';

/** System management (issue 8): organisations, users, farms, houses, gateways, breeds, operation log. Mounted under /api. */
export function adminRoutes(_ctx: AppContext): FastifyPluginAsync {
  return async () => {};
}
