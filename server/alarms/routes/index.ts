import type { AppContext } from '../../http/context';
import type { RoutePlugin } from '../../http/routeSchema';
import { alarmListRoutes } from './alarms';
import { inputRoutes } from './inputs';
import { phoneRoutes } from './phones';
import { settingsRoutes } from './settings';

/** Alarms: the list and its actions, alarm limits, alarm phones and alarm inputs. */
export function alarmRoutes(ctx: AppContext): RoutePlugin {
  return async (app) => {
    await app.register(alarmListRoutes(ctx));
    await app.register(settingsRoutes(ctx));
    await app.register(phoneRoutes(ctx));
    await app.register(inputRoutes(ctx));
  };
}
