import { adminUserRoutes } from './users';
import { breedRoutes } from './breeds';
import { farmRoutes } from './farms';
import { enrolRoutes } from './enrol';
import { gatewayRoutes } from './gateways';
import { logRoutes } from './logs';
import { orgRoutes } from './orgs';
import type { AppContext } from '../../http/context';
import type { RoutePlugin } from '../../http/routeSchema';
import { TakenBudget } from '../probes';

/** System management: organisations, users, farms, houses, gateways, breeds, operation log. */
export function adminRoutes(ctx: AppContext): RoutePlugin {
  // One budget of "taken" answers per user for login names and network ids alike.
  const taken = new TakenBudget();
  return async (app) => {
    // Any change here may change who sees what (roles, assignments, a house's farm, an
    // organisation): open sockets are re-scoped before the change is answered.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.method !== 'GET' && reply.statusCode < 400)
        await ctx.events.emit('scopesChanged', null);
      return payload;
    });
    await app.register(logRoutes(ctx));
    await app.register(adminUserRoutes(ctx, taken));
    await app.register(orgRoutes(ctx));
    await app.register(farmRoutes(ctx));
    await app.register(gatewayRoutes(ctx, taken));
    await app.register(enrolRoutes(ctx));
    await app.register(breedRoutes(ctx));
  };
}
