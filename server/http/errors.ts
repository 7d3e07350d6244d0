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
};

/** The HTTP answer to a feature's refusal. */
export function apiErrorOf(refusal: Refusal): ApiError {
  return new ApiError(STATUS_OF[refusal.reason], refusal.key, refusal.params);
}
