import { randomInt } from 'node:crypto';
import { and, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { scopeOf, type Scope } from '../auth/scope';
import type { SessionUser } from '../auth/sessions';
import type { Db } from '../db/client';
import { organizations, users } from '../db/schema';
import { Refusal } from '../refusal';
import type { UserRow } from '../../src/contract/admin';
import { ROLE_KEYS, ROLE_RANK, type RoleKey } from '../../src/contract/roles';
import { newPasswordMinLength } from '../../src/contract/password';
import type { Edition } from '../../src/contract/editions';
import { containsPattern } from './access';
import { assignmentsOf, scopeInside, scopeOfAssignment, TreeIndex } from './userScope';

/**
 * Roles a user may give and change: managers only those strictly below their own; an
 * administrator also administrators, or no second administrator could ever exist.
 */
export function assignableRoles(actor: RoleKey): RoleKey[] {
  return ROLE_KEYS.filter((r) =>
    actor === 'administrator' ? true : ROLE_RANK[r] > ROLE_RANK[actor],
  );
}

export interface Viewer {
  user: SessionUser;
  scope: Scope;
  tree: TreeIndex;
}

export async function viewerOf(db: Db, user: SessionUser): Promise<Viewer> {
  const [scope, tree] = await Promise.all([scopeOf(db, user), TreeIndex.load(db)]);
  return { user, scope, tree };
}

type UserRecord = typeof users.$inferSelect;

/**
 * The users `viewer` may see and change, with their assignments. Administrators see all;
 * a manager sees users of its organisation, with a role below its own, whose whole scope
 * lies inside its own.
 */
export async function manageableUsers(
  db: Db,
  viewer: Viewer,
  filters: { keyword?: string; roleKey?: RoleKey; orgId?: number; ids?: number[] } = {},
): Promise<UserRow[]> {
  const { user } = viewer;
  const admin = user.roleKey === 'administrator';
  const allowedRoles = assignableRoles(user.roleKey);
  const conditions: (SQL | undefined)[] = [
    inArray(users.roleKey, allowedRoles),
    filters.roleKey ? eq(users.roleKey, filters.roleKey) : undefined,
    filters.keyword
      ? or(
          ilike(users.username, containsPattern(filters.keyword)),
          ilike(users.realName, containsPattern(filters.keyword)),
        )
      : undefined,
    filters.ids ? inArray(users.id, filters.ids.length ? filters.ids : [-1]) : undefined,
    admin
      ? filters.orgId
        ? eq(users.orgId, filters.orgId)
        : undefined
      : user.orgId === null
        ? eq(users.id, -1)
        : eq(users.orgId, user.orgId),
  ];
  const rows = await db
    .select({ u: users, orgName: organizations.name })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.orgId))
    .where(and(...conditions))
    .orderBy(users.id);
  const assignments = await assignmentsOf(
    db,
    rows.map((r) => r.u.id),
  );
  return rows
    .map((r) => presentUser(r.u, r.orgName ?? '', assignments))
    .filter(
      (row) =>
        admin ||
        scopeInside(
          scopeOfAssignment(viewer.tree, {
            roleKey: row.roleKey,
            scopeNodeId: row.scopeNodeId,
            farmIds: row.farmIds,
            shackIds: row.shackIds,
          }),
          viewer.scope,
        ),
    );
}

/** One user the viewer may manage, or 404 (never 403: that would say the user exists). */
export async function manageableUser(db: Db, viewer: Viewer, id: number): Promise<UserRow> {
  const [row] = await manageableUsers(db, viewer, { ids: [id] });
  if (!row) throw new Refusal('notFound', 'admin.notFound');
  return row;
}

function presentUser(
  u: UserRecord,
  orgName: string,
  a: { farms: Map<number, number[]>; houses: Map<number, number[]> },
): UserRow {
  return {
    id: u.id,
    username: u.username,
    realName: u.realName,
    department: u.department,
    position: u.position,
    officeTel: u.officeTel,
    mobile: u.mobile,
    email: u.email,
    roleKey: u.roleKey as RoleKey,
    canOperate: u.canOperate ? '1' : '0',
    remoteConfigFlag: u.remoteConfig ? '1' : '0',
    orgId: u.orgId,
    orgName,
    scopeNodeId: u.scopeNodeId,
    farmIds: a.farms.get(u.id) ?? [],
    shackIds: a.houses.get(u.id) ?? [],
    lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
    loginCount: u.loginCount,
  };
}

const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
/** 14 characters from 56 symbols ≈ 81 bits: enough for a password the user changes soon. */
const RESET_PASSWORD_LENGTH = 14;

/**
 * A random password that meets the edition's rule (one of each class, then random), without
 * look-alike characters (l, 1, O, 0) since it is read off the screen once.
 */
export function randomPassword(edition: Edition): string {
  const length = Math.max(RESET_PASSWORD_LENGTH, newPasswordMinLength(edition));
  const all = LOWER + UPPER + DIGITS;
  const pick = (set: string) => set[randomInt(set.length)]!;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
