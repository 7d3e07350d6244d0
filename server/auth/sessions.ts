import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organizations, sessions, users } from '../db/schema';
import type { RoleKey } from '../../src/contract/roles';
import { hashToken, newToken } from './tokens';

/** A session ends after 7 days without use: a forgotten signed-in browser does not stay open for good. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** Writing last_used_at on every request would turn each read into a write: once a minute is enough. */
const TOUCH_EVERY_MS = 60_000;

export interface SessionUser {
  id: number;
  username: string;
  realName: string;
  avatar: string;
  roleKey: RoleKey;
  orgId: number | null;
  orgName: string;
  mapType: '1' | '2';
  canOperate: boolean;
  remoteConfig: boolean;
  scopeNodeId: number | null;
}

export interface Session {
  tokenHash: string;
  user: SessionUser;
}

export async function createSession(db: Db, userId: number, source = 'computer'): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({ tokenHash: hashToken(token), userId, source });
  return token;
}

/** The session of a token, or null when unknown, revoked or idle for too long. */
export async function findSession(
  db: Db,
  token: string,
  now = new Date(),
): Promise<Session | null> {
  return findSessionByHash(db, hashToken(token), now);
}

/** The session stored under a token's hash (the live hub knows only the hash). */
export async function findSessionByHash(
  db: Db,
  tokenHash: string,
  now = new Date(),
): Promise<Session | null> {
  const idleLimit = new Date(now.getTime() - SESSION_IDLE_MS);
  const rows = await db
    .select({
      lastUsedAt: sessions.lastUsedAt,
      id: users.id,
      username: users.username,
      realName: users.realName,
      avatar: users.avatar,
      roleKey: users.roleKey,
      orgId: users.orgId,
      orgName: organizations.name,
      mapType: organizations.mapType,
      canOperate: users.canOperate,
      remoteConfig: users.remoteConfig,
      scopeNodeId: users.scopeNodeId,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, users.orgId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.lastUsedAt, idleLimit)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.tokenHash, tokenHash));
  }
  const { lastUsedAt: _unused, orgName, mapType, roleKey, ...user } = row;
  return {
    tokenHash,
    user: {
      ...user,
      roleKey: roleKey as RoleKey,
      orgName: orgName ?? '',
      mapType: mapType === '2' ? '2' : '1',
    },
  };
}

export async function revokeSession(db: Db, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** After a password change every other session of the user ends (ASVS). */
export async function revokeOtherSessions(
  db: Db,
  userId: number,
  keepTokenHash: string,
): Promise<void> {
  await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)));
}

/** Housekeeping: idle sessions are worthless, drop them. */
export async function deleteIdleSessions(db: Db, now = new Date()): Promise<void> {
  await db
    .delete(sessions)
    .where(lt(sessions.lastUsedAt, new Date(now.getTime() - SESSION_IDLE_MS)));
}

export async function recordLogin(db: Db, userId: number, now = new Date()): Promise<void> {
  await db
    .update(users)
    .set({ lastLoginAt: now, loginCount: sql`${users.loginCount} + 1` })
    .where(eq(users.id, userId));
}
