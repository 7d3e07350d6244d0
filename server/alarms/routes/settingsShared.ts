import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idSchema } from '../../../src/contract/ids';
import { scopeOf } from '../../auth/scope';
import { sessionOf, sourceOf, type AppContext } from '../../http/context';
import { writeOperationLog } from '../../oplog';
import type { FunctionKey, Operation } from '../../../src/contract/operationLog';

// What the alarm phone, alarm input and limit routes share: the id body, the
// caller's scope and the operation log.

export const idBody = z.object({ id: idSchema });

/** The caller's scope and an operation-log writer for one settings route module. */
export function settingsContext(ctx: AppContext) {
  const { database } = ctx;
  const scopeFor = (request: FastifyRequest) => scopeOf(database.db, sessionOf(request).user);
  const log = (
    request: FastifyRequest,
    fn: FunctionKey,
    operation: Operation,
    house?: { id: number; name: string } | null,
  ) => {
    const { user } = sessionOf(request);
    return writeOperationLog(database.db, {
      operator: { id: user.id, name: user.realName || user.username },
      function: fn,
      operation,
      house: house ?? null,
      source: sourceOf(request),
    });
  };

  return { database, scopeFor, log };
}
