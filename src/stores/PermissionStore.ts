import { makeAutoObservable, observableRef } from 'mobx';

/** Flags from GET /api/config that add routes (the alarm overview). */
export interface RouteFlags {
  alarmScreen: boolean;
}

/** What route generation needs to know of a route; the console's table has more. */
export interface RouteRule {
  path: string;
  /** Roles that may open it; no list means everyone signed in. */
  roles?: readonly string[];
  /** A flag of GET /api/config that must be on. */
  flag?: keyof RouteFlags;
  children?: readonly RouteRule[];
}

/** A role called `admin` gets every role-restricted route. */
export const SUPER_ROLE = 'admin';

export function roleAllows(route: RouteRule, roles: readonly string[]): boolean {
  if (!route.roles) return true;
  if (roles.includes(SUPER_ROLE)) return true;
  return roles.some((role) => route.roles?.includes(role));
}

/**
 * The routes of a role: a route is kept when its roles allow one of the user's roles
 * and its flag is on; a parent that is refused takes its children with it.
 */
export function filterRoutes<R extends RouteRule>(
  routes: readonly R[],
  roles: readonly string[],
  flags: RouteFlags,
): R[] {
  const allowed: R[] = [];
  for (const route of routes) {
    if (!roleAllows(route, roles)) continue;
    if (route.flag && !flags[route.flag]) continue;
    // A route's children are routes of the same table, so they keep its type.
    const children = route.children
      ? filterRoutes(route.children as readonly R[], roles, flags)
      : undefined;
    allowed.push(children ? { ...route, children } : route);
  }
  return allowed;
}

/** Joins a child's path to its parent's: `/system` + `org` → `/system/org`. */
export function joinPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child;
  return `${parent.replace(/\/$/, '')}/${child}`;
}

/** Every full path of a tree of routes. */
export function flattenPaths(routes: readonly RouteRule[], parent = ''): string[] {
  return routes.flatMap((route) => {
    const path = joinPath(parent || '/', route.path);
    return [path, ...flattenPaths(route.children ?? [], path)];
  });
}

/** The routes the signed-in user may open, generated once the role is known. */
export class PermissionStore<R extends RouteRule = RouteRule> {
  routes: R[] = [];
  generated = false;

  constructor(private readonly table: readonly R[]) {
    makeAutoObservable<PermissionStore<R>, 'table'>(this, { table: false, routes: observableRef });
  }

  generate(roles: readonly string[], flags: RouteFlags): R[] {
    this.routes = filterRoutes(this.table, roles, flags);
    this.generated = true;
    return this.routes;
  }

  /** Full paths of every allowed route. */
  get allowedPaths(): ReadonlySet<string> {
    return new Set(flattenPaths(this.routes));
  }

  reset(): void {
    this.routes = [];
    this.generated = false;
  }
}
