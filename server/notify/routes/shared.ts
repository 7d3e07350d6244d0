import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FunctionKey } from '../../../src/contract/operationLog';
import { canSeeFarm, canSeeHouse, scopeOf, type Scope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { houses } from '../../db/schema';
import { sessionOf, sourceOf } from '../../http/context';
import { mayCoverWholeFarm } from '../../alarms/access';
import { writeOperationLog } from '../../oplog';
import { Refusal } from '../../refusal';

export const scopeFor = (database: Database, request: FastifyRequest) =>
  scopeOf(database.db, sessionOf(request).user);

/**
 * The place a silence or an escalation level is about: the farm must be in scope, a house of
 * that farm in scope too; a farm-wide one covers houses a house manager does not run, so it is
 * refused to them. Outside the scope answers like not existing.
 */
export async function checkPlace(
  database: Database,
  request: FastifyRequest,
  scope: Scope,
  farmId: number,
  houseId: number | null,
): Promise<{ id: number; name: string } | null> {
  if (!canSeeFarm(scope, farmId)) throw new Refusal('notFound', 'http.notFound');
  if (houseId === null) {
    if (!mayCoverWholeFarm(sessionOf(request).user))
      throw new Refusal('forbidden', 'auth.forbidden');
    return null;
  }
  const [house] = await database.db
    .select({ id: houses.id, name: houses.name })
    .from(houses)
    .where(and(eq(houses.id, houseId), eq(houses.farmId, farmId)));
  if (!house || !canSeeHouse(scope, houseId)) throw new Refusal('notFound', 'http.notFound');
  return house;
}

export function logChange(
  database: Database,
  request: FastifyRequest,
  fn: FunctionKey,
  text: string,
  house: { id: number; name: string } | null,
) {
  const { user } = sessionOf(request);
  return writeOperationLog(database.db, {
    operator: { id: user.id, name: user.realName || user.username },
    function: fn,
    operation: { key: 'text', params: { text } },
    house,
    source: sourceOf(request),
  });
}
