import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { farms } from '../db/schema';
import type { SessionUser } from '../auth/sessions';
import { writeOperationLog, type LogEntry } from '../oplog';
import { sessionOf, sourceOf } from '../http/context';
import { Refusal } from '../refusal';
import type { TakenBudget } from './probes';
import { subtreeIds } from '../auth/farmTree.sql';

/**
 * Whether the user manages the whole installation (every organisation, farm node and user) and
 * not only its own part: the routes' roles let several roles in, this decides how far they reach.
 */
export function managesAll(user: Pick<SessionUser, 'roleKey'>): boolean {
  return user.roleKey === 'administrator';
}

/** Writes one operation-log entry for a change made through this request. */
export function logChange(
  db: Db,
  request: FastifyRequest,
  entry: Omit<LogEntry, 'operator' | 'source'>,
): Promise<void> {
  const { user } = sessionOf(request);
  return writeOperationLog(db, {
    ...entry,
    operator: { id: user.id, name: user.realName || user.username },
    source: sourceOf(request),
  });
}

/**
 * The farm-tree nodes a user may change on /system/farm: everything for administrators, the
 * company node's subtree for a company manager (the company node itself only below it: a
 * company manager does not rename or delete its own company). `null` means all.
 */
export async function manageableNodes(
  db: Db,
  user: SessionUser,
): Promise<{ all: true } | { all: false; root: number | null; ids: ReadonlySet<number> }> {
  if (user.roleKey === 'administrator') return { all: true };
  if (user.roleKey !== 'company_manager' || user.scopeNodeId === null)
    return { all: false, root: null, ids: new Set() };
  return {
    all: false,
    root: user.scopeNodeId,
    ids: new Set(await subtreeIds(db, user.scopeNodeId)),
  };
}

/** The organisation of a farm node, or 404. */
export async function orgOfNode(db: Db, nodeId: number): Promise<number> {
  const [row] = await db.select({ orgId: farms.orgId }).from(farms).where(eq(farms.id, nodeId));
  if (!row) throw new Refusal('notFound', 'admin.notFound');
  return row.orgId;
}

/**
 * Turns a unique-constraint violation into a 409 with `key`; other errors pass through. With
 * `counted`, the refusal counts against that user's budget of "taken" answers (probes.ts).
 */
export function conflictAs(
  key: 'admin.codeTaken' | 'admin.usernameTaken' | 'admin.networkIdTaken',
  counted?: { budget: TakenBudget; userId: number },
) {
  return (error: unknown): never => {
    const code = (error as { code?: string; cause?: { code?: string } }).code;
    const causeCode = (error as { cause?: { code?: string } }).cause?.code;
    if (code === '23505' || causeCode === '23505') {
      counted?.budget.note(counted.userId);
      throw new Refusal('conflict', key);
    }
    throw error;
  };
}

/** `%` and `_` typed by the user are literal characters, not wildcards. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
