import type { AppContext } from '../../http/context';
import type { RoutePlugin } from '../../http/routeSchema';
import { ackRoutes } from './ack';
import { drillRoutes } from './drills';
import { escalationRoutes } from './escalation';
import { prefsRoutes } from './prefs';
import { receiptRoutes } from './receipts';
import { silenceRoutes } from './silences';

/** Alarm notifications: silences, escalation levels, the signed acknowledge link. */
export function notifyRoutes(ctx: AppContext): RoutePlugin {
  return async (app) => {
    await app.register(silenceRoutes(ctx));
    await app.register(escalationRoutes(ctx));
    await app.register(ackRoutes(ctx));
    await app.register(prefsRoutes(ctx));
    await app.register(drillRoutes(ctx));
    await app.register(receiptRoutes(ctx));
  };
}
