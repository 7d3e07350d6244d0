import type { ApiCode } from '../../src/contract/envelope';
import type { Refusal, RefusalReason } from '../refusal';
import type { MessageKey } from './messages';

/** A refusal the user should read: thrown by handlers, turned into the envelope by the app. */
export class ApiError extends Error {
  constructor(
    readonly status: ApiCode,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

const STATUS_OF: Record<RefusalReason, ApiCode> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  unprocessable: 422,
  tooMany: 429,
};

/** The HTTP answer to a feature's refusal. */
export function apiErrorOf(refusal: Refusal): ApiError {
  return new ApiError(STATUS_OF[refusal.reason], refusal.key, refusal.params);
}

/**
 * The database cannot take the request now (disk full, out of memory or connections, the
 * connection lost, switched to read-only): a 503 the client may retry, not a 500. SQLSTATE
 * classes 53 (insufficient resources), 08 (connection), 57P0x (shut down), 58030 (I/O error)
 * and 25006 (read-only transaction).
 */
export function databaseUnavailable(error: unknown): boolean {
  return causes(error).some((e) => {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(53|08)|^57P0[1-3]$|^58030$|^25006$/.test(code)) return true;
    const message = e instanceof Error ? e.message : '';
    return /No space left on device|Connection terminated|ECONNREFUSED|ECONNRESET/.test(message);
  });
}

/**
 * The link to the database is lost (PostgreSQL restarting, failing over, out of reach): a
 * moment later the same write may succeed, unlike a full disk or a value it refuses. SQLSTATE
 * class 08 (connection) and 57P0x (shut down).
 */
export function databaseAway(error: unknown): boolean {
  return causes(error).some((e) => {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^08|^57P0[1-3]$|^ECONN(REFUSED|RESET)$/.test(code))
      return true;
    const message = e instanceof Error ? e.message : '';
    return /Connection terminated|ECONNREFUSED|ECONNRESET|not queryable/.test(message);
  });
}

/**
 * Every connection of the PostgreSQL pool stayed busy for its whole wait (a burst of thousands
 * of gateways signing in at once): the request could not start. A moment later it can.
 */
export function databaseBusy(error: unknown): boolean {
  return causes(error).some(
    (e) => e instanceof Error && e.message === 'timeout exceeded when trying to connect',
  );
}

/** The error and what caused it, as drizzle wraps the driver's error in its own. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/**
 * The database's own refusals of a value the request carried: a number out of range, a
 * character it cannot store (a NUL byte is 22021 on both drivers), a row referred to that does
 * not exist, a value that must be unique and is not. Routes check these before writing; this is
 * the net under them, so bad input never turns into a 500. The driver's SQLSTATE is looked for
 * along the cause chain: Drizzle wraps the PGlite and node-postgres errors in its own, with
 * the code on `cause`. SQLSTATE class 22 is "data exception", 23503 "foreign key violation",
 * 23505 "unique violation".
 */
export function inputRefusedByDatabase(error: unknown): ApiError | null {
  const code = causes(error)
    .map((e) => (e as { code?: unknown }).code)
    .find((c): c is string => typeof c === 'string' && /^[0-9A-Z]{5}$/.test(c));
  if (code === undefined) return null;
  if (code === '23503') return new ApiError(404, 'http.notFound');
  if (code === '23505') return new ApiError(409, 'http.conflict');
  if (code.startsWith('22')) return new ApiError(400, 'http.badRequest');
  return null;
}
