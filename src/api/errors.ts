/** Why a request failed, as the console tells it. */
export type ApiFailure = 'http' | 'network' | 'timeout' | 'badAnswer' | 'unauthorized';

/**
 * A failed /api call. `message` is what the user is told (the server's `msg`, already in the
 * request's language, or a console text); `status` is the envelope code when there was one.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly kind: ApiFailure,
    readonly status: number | null,
    /** The error toast was already shown: callers must not show it again. */
    readonly shown: boolean,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
