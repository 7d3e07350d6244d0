import type { FastifyRequest } from 'fastify';
import { and, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../auth/sessions';
import type { Db } from '../db/client';
import { breeds } from '../db/schema';
import { ApiError } from '../http/errors';
import { sessionOf } from '../http/context';
import { FARM_ADMIN_ROLES } from './routes/farms';
import type { RoleKey } from '../../src/contract/roles';

/**
 * Who may see and change a breed: shared by the breed routes and the breed's early-warning
 * limits (server/production), so both answer alike.
 */

type BreedRecord = typeof breeds.$inferSelect;

/** Administrators see every breed; a company manager the common ones and its organisation's. */
export function visibleBreeds(user: SessionUser): SQL | undefined {
  if (user.roleKey === 'administrator') return undefined;
  return or(
    eq(breeds.isCommon, true),
    user.orgId === null ? isNull(breeds.id) : eq(breeds.orgId, user.orgId),
  );
}

export async function visibleBreed(db: Db, user: SessionUser, id: number): Promise<BreedRecord> {
  const [row] = await db
    .select()
    .from(breeds)
    .where(and(eq(breeds.id, id), visibleBreeds(user)));
  if (!row) throw new ApiError(404, 'admin.notFound');
  return row;
}

/**
 * A breed the caller may change: visible and not common (common breeds are copied instead).
 * Only for routes whose `config.roles` are BREED_MANAGER_ROLES: the app has refused others.
 */
export async function breedForChange(
  db: Db,
  request: FastifyRequest,
  id: number,
): Promise<BreedRecord> {
  const row = await visibleBreed(db, sessionOf(request).user, id);
  if (row.isCommon) throw new ApiError(403, 'admin.commonReadOnly');
  return row;
}

/** The roles that manage breeds: administrators and company managers. */
export const BREED_MANAGER_ROLES: readonly RoleKey[] = FARM_ADMIN_ROLES;
