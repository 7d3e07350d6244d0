import type { ApiCode } from '../../src/contract/envelope';
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
