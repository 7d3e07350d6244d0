import type { Scope } from '../auth/scope';

/** SQL condition limiting a house id column to a scope; pushes its parameter. */
export function scopeWhere(scope: Scope, params: unknown[], column = 'a.house_id'): string {
  if (scope.all) return 'true';
  return `${column} = any($${params.push([...scope.houseIds])}::int[])`;
}
