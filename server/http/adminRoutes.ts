import type { FastifyPluginAsync } from 'fastify';
import { adminUserRoutes } from '../admin/userRoutes';
import { breedRoutes } from '../admin/breedRoutes';
import { farmRoutes } from '../admin/farmRoutes';
import { gatewayRoutes } from '../admin/gatewayRoutes';
import { logRoutes } from '../admin/logRoutes';
import { orgRoutes } from '../admin/orgRoutes';
import type { AppContext } from './context';

/** System management (issue 8): organisations, users, farms, houses, gateways, breeds, operation log. Mounted under /api. */
export function adminRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    await app.register(logRoutes(ctx));
    await app.register(adminUserRoutes(ctx));
    await app.register(orgRoutes(ctx));
    await app.register(farmRoutes(ctx));
    await app.register(gatewayRoutes(ctx));
    await app.register(breedRoutes(ctx));
  };
}
