/**
 * The operation permission in the role × endpoint matrix (README "Roles and the operation
 * permission"): each demo role has a twin with the same role and scope but `canOperate` off.
 * Every operating route refuses the twin (403, in its language) the very request the role
 * makes with success; administration and a user's own account stay open to it.
 */
import type { TestApp } from '../helpers/testApp';
import type { Role } from './matrixFixtures';
import type { Build, Endpoint } from './matrixShared';

/**
 * Changing routes the role alone decides: administration of users, organisations, farms and
 * houses, breeds, kiosk links and backups, and the user's own account and preferences. Every
 * other changing route must be marked OPERATING (server/auth/operate.ts): the route guard
 * below fails for a changing route that is neither, so a new one is classified when added.
 */
export const ADMINISTRATION: ReadonlySet<string> = new Set([
  'POST /api/user/save',
  'DELETE /api/user/delete',
  'PUT /api/user/resetPwd',
  'PUT /api/user/saveUserShacks',
  'PUT /api/user/modifyPwd',
  'POST /api/logout',
  'POST /api/farm/create',
  'PUT /api/farm/update',
  'DELETE /api/farm/delete',
  'POST /api/house/create',
  'PUT /api/house/update',
  'DELETE /api/house/delete',
  'POST /api/org/create',
  'PUT /api/org/update',
  'DELETE /api/org/delete',
  'POST /api/org/uploadLogo',
  'POST /api/breed/create',
  'PUT /api/breed/update',
  'DELETE /api/breed/delete',
  'POST /api/breed/copy',
  'PUT /api/breed/saveTargets',
  'PUT /api/breed/saveImmune',
  'POST /api/ops/backup',
  'POST /api/notify/prefs/save',
  'POST /api/wall/kiosk/create',
  'POST /api/wall/kiosk/revoke',
  'POST /api/wall/kiosk/layout',
]);

/** A twin's user name: the demo role's with this suffix. */
const TWIN_SUFFIX = '.viewonly';

/**
 * Makes and signs in, for each demo role, a user with the same role, organisation and scope
 * whose operation permission is off.
 */
export async function signInTwins(
  t: TestApp,
  roles: readonly Role[],
): Promise<Record<Role, string>> {
  const query = t.database.query;
  const tokens: Partial<Record<Role, string>> = {};
  for (const role of roles) {
    const twin = `${role}${TWIN_SUFFIX}`;
    const [row] = await query<{ id: number }>(
      `insert into users (org_id, username, password_hash, real_name, role_key, can_operate,
                          remote_config, scope_node_id)
       select org_id, $2, password_hash, real_name || ' (view only)', role_key, false,
              remote_config, scope_node_id
       from users where username = $1 returning id`,
      [role, twin],
    );
    await query(
      `insert into user_farms (user_id, farm_id)
       select $2, farm_id from user_farms uf join users u on u.id = uf.user_id where u.username = $1`,
      [role, row!.id],
    );
    await query(
      `insert into user_houses (user_id, house_id)
       select $2, house_id from user_houses uh join users u on u.id = uh.user_id where u.username = $1`,
      [role, row!.id],
    );
    tokens[role] = await t.signIn(twin);
  }
  return tokens as Record<Role, string>;
}

/** One request of a role's twin: the role's own successful request of a changing endpoint. */
export interface TwinRow {
  name: string;
  role: Role;
  endpoint: Endpoint;
  build: Build;
  locale: 'en' | 'zh';
}

/**
 * The twin rows of a changing endpoint: its first role's twin and, where it is for company
 * managers too (the role once let through without the permission), each with the role's inside request.
 */
export function twinRowsOf(endpoint: Endpoint, index: number): TwinRow[] {
  if (endpoint.method === 'GET') return [];
  const roles = [
    ...new Set([endpoint.roles[0]!, ...endpoint.roles.filter((r) => r === 'company')]),
  ];
  return roles.flatMap((role, i) => {
    const build = endpoint.inside[role];
    if (!build) return [];
    const label = `${endpoint.method} ${endpoint.path}`;
    const locale = (index + i) % 2 === 0 ? 'en' : 'zh';
    return [
      { name: `${role} without canOperate ${label} (${locale})`, role, endpoint, build, locale },
    ];
  });
}
