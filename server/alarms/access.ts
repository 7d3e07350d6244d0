import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { RoleKey } from '../../src/contract/roles';
import type { Scope } from '../auth/scope';

/**
 * `column = any($1::int[])`: one parameter however many ids (an `in` list takes one each, and
 * the engine's batches name thousands of houses, past PostgreSQL's 65,535 parameters).
 */
export function anyOf(column: PgColumn, ids: readonly number[]): SQL {
  return sql`${column} = any(${sql.param([...ids])}::int[])`;
}

/** Drizzle condition limiting a house id column to a scope; none when the scope is all. */
export function inScope(scope: Scope, houseId: PgColumn): SQL | undefined {
  return scope.all ? undefined : anyOf(houseId, [...scope.houseIds]);
}

/**
 * Whether a user may set something that covers a whole farm (an alarm phone entry, a silence):
 * it reaches every house of the farm, and a house manager runs only some of them.
 */
export function mayCoverWholeFarm(user: { roleKey: RoleKey }): boolean {
  return user.roleKey !== 'shack_manager';
}
