import { joinPath } from '../stores/PermissionStore';
import { ROUTE_TABLE } from './routes';
import { type ConsoleRoute } from './routeTypes';

/** A table route with its full path and its parents. */
export interface ResolvedRoute {
  fullPath: string;
  route: ConsoleRoute;
  parents: readonly ConsoleRoute[];
}

function resolveAll(
  routes: readonly ConsoleRoute[],
  parentPath: string,
  parents: readonly ConsoleRoute[],
): ResolvedRoute[] {
  return routes.flatMap((route) => {
    const fullPath = joinPath(parentPath, route.path);
    return [
      { fullPath, route, parents },
      ...resolveAll(route.children ?? [], fullPath, [...parents, route]),
    ];
  });
}

const BY_PATH = new Map(resolveAll(ROUTE_TABLE, '/', []).map((r) => [r.fullPath, r]));

/** `/a/b/` and `/a/b` are the same page. */
export function normalisePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** The table's route at this path, if the table has one. */
export function findRoute(pathname: string): ResolvedRoute | undefined {
  return BY_PATH.get(normalisePath(pathname));
}

/** Every table route with its full path, in table order. */
export function resolveRoutes(routes: readonly ConsoleRoute[]): ResolvedRoute[] {
  return resolveAll(routes, '/', []);
}
