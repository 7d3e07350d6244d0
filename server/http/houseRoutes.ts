import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from './context';

/** House status (issue 5): comparison of several houses and the exports. Mounted under /api. */
export function houseRoutes(_ctx: AppContext): FastifyPluginAsync {
  return async () => {};
}
