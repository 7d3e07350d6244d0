import type { RoleKey } from '../../src/contract/roles';
import type { Scope } from '../auth/scope';

/** SQL condition limiting a house id column to a scope; pushes its parameter. */
export function scopeWhere(scope: Scope, params: unknown[], column = 'a.house_id'): string {
  if (scope.all) return 'true';
  return `${column} = any($${params.push([...scope.houseIds])}::int[])`;
}

/**
 * Whether a user may set something that covers a whole farm (an alarm phone entry, a silence):
 * it reaches every house of the farm, and a house manager runs only some of them.
 */
export function mayCoverWholeFarm(user: { roleKey: RoleKey }): boolean {
  return user.roleKey !== 'shack_manager';
}
