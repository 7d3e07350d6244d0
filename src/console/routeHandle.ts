import { type ConsoleRoute } from './routeTypes';

/** What a matched route tells the shell: its table entry (title, tab flags) and full path. */
export interface RouteHandle {
  route: ConsoleRoute;
  fullPath: string;
}
