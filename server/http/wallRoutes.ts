import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from './context';

/** The alarm overview wall screen (issue 7): farms on the map, drill-down data. Mounted under /api. */
export function wallRoutes(_ctx: AppContext): FastifyPluginAsync {
  return async () => {};
}
