import type { MessageKey } from './http/messages';

/** Why the domain refused something; the HTTP toolkit answers each with its status. */
export type RefusalReason =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'notFound'
  | 'conflict'
  | 'unprocessable'
  | 'tooMany';

/**
 * A refusal the user should read, thrown by feature code that knows nothing of HTTP: what was
 * refused (`reason`) and the message to show (`key`, translated in the user's language). Only
 * the HTTP toolkit turns it into a status and the envelope (`server/http/errors.ts`).
 */
export class Refusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}
