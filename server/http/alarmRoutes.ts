import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from './context';

/** Alarms (issue 6): the alarm count, list, acknowledge and clear, alarm phone and alarm input settings. Mounted under /api. */
export function alarmRoutes(_ctx: AppContext): FastifyPluginAsync {
  return async () => {};
}
