import type { FastifyRequest } from 'fastify';
import type { Scope } from '../auth/scope';
import { sessionOf } from '../http/context';
import { Refusal } from '../refusal';

/** SQL condition limiting a house id column to a scope; pushes its parameter. */
export function scopeWhere(scope: Scope, params: unknown[], column = 'a.house_id'): string {
  if (scope.all) return 'true';
  return `${column} = any($${params.push([...scope.houseIds])}::int[])`;
}

/** Operating actions need the user's operation permission (`canOperate`). */
export function requireOperate(request: FastifyRequest): void {
  if (!sessionOf(request).user.canOperate) throw new Refusal('forbidden', 'auth.forbidden');
}
