import type { FastifyRequest } from 'fastify';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { canSeeHouse, scopeOf, type Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { gateways, houses } from '../db/schema';
import { sessionOf, sourceOf } from '../http/context';
import type { GatewayDirectory } from '../ingest/gatewayDirectory';
import { writeOperationLog } from '../oplog';
import { Refusal } from '../refusal';
import type { FunctionKey } from '../../src/contract/operationLog';

/** The condition limiting a house id column to a scope (none of them when the scope is empty). */
export function houseScopeWhere(scope: Scope, column: AnyPgColumn): SQL {
  return scope.all ? sql`true` : inArray(column, [...scope.houseIds]);
}

/** What every device route needs: the caller's scope now, a house check and the log. */
export function deviceContext(database: Database, directory: GatewayDirectory) {
  const scopeFor = (request: FastifyRequest) => scopeOf(database.db, sessionOf(request).user);

  /** The house, if the caller may see it now; otherwise it does not exist for them. */
  const houseIn = async (scope: Scope, houseId: number) => {
    const [house] = await database.db
      .select({ id: houses.id, name: houses.name })
      .from(houses)
      .where(eq(houses.id, houseId));
    if (!house || !canSeeHouse(scope, houseId)) throw new Refusal('notFound', 'houses.notFound');
    return house;
  };

  const log = (
    request: FastifyRequest,
    fn: FunctionKey,
    text: string,
    house: { id: number; name: string } | null,
  ) => {
    const { user } = sessionOf(request);
    return writeOperationLog(database.db, {
      operator: { id: user.id, name: user.realName || user.username },
      function: fn,
      operation: { key: 'text', params: { text } },
      house,
      source: sourceOf(request),
    });
  };

  const operatorName = (request: FastifyRequest) => {
    const { user } = sessionOf(request);
    return user.realName || user.username;
  };

  /** A house's extra parameters changed: its gateway's cached ones are dropped at once. */
  const forgetGatewayOf = async (houseId: number) => {
    const rows = await database.db
      .select({ networkId: gateways.networkId })
      .from(gateways)
      .where(eq(gateways.houseId, houseId));
    for (const row of rows) directory.forget(row.networkId);
    directory.forgetHouse(houseId);
  };

  return { database, scopeFor, houseIn, log, operatorName, forgetGatewayOf };
}

export type DeviceContext = ReturnType<typeof deviceContext>;

/** Postgres says 23505 for a unique violation, whichever driver. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** The unique index a 23505 violated (PostgreSQL and PGlite both name it), or null. */
export function violatedIndex(error: unknown): string | null {
  const e = error as { constraint?: string; cause?: { constraint?: string } } | null;
  return e?.constraint ?? e?.cause?.constraint ?? null;
}
