import { Intent } from '@blueprintjs/core';
import { NOTIFICATION_MS, showErrorToast, showToast } from '../../toaster';

/** A 2 s success notification. */
export function notifySuccess(message: string): void {
  showToast({ message, intent: Intent.SUCCESS, timeoutMs: NOTIFICATION_MS });
}

/** Errors of the JSON client are toasted by the client already; files report here. */
export function notifyError(error: unknown): void {
  showErrorToast(error instanceof Error ? error.message : String(error));
}

/** Runs a call; a failure was already shown by the API client, so it is only swallowed here. */
export async function quietly<T>(action: () => Promise<T>): Promise<T | undefined> {
  try {
    return await action();
  } catch {
    return undefined;
  }
}
