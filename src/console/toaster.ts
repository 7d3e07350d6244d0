import { Intent, OverlayToaster, Position, type Toaster } from '@blueprintjs/core';

/** Request errors stay 5 s, notifications 2 s. */
export const ERROR_TOAST_MS = 5_000;
export const NOTIFICATION_MS = 2_000;

let toaster: Promise<Toaster> | null = null;

/** The one shared toaster of the console, created on first use. */
function sharedToaster(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({
    position: Position.TOP,
    maxToasts: 4,
    className: 'roost-toaster',
  });
  return toaster;
}

export interface ToastRequest {
  message: string;
  intent: Intent;
  timeoutMs: number;
}

export function showToast({ message, intent, timeoutMs }: ToastRequest): void {
  void sharedToaster().then((t) => t.show({ message, intent, timeout: timeoutMs }));
}

/** What an action the user asked for did: shown briefly (errors stay longer). */
export function showSuccessToast(message: string): void {
  showToast({ message, intent: Intent.SUCCESS, timeoutMs: NOTIFICATION_MS });
}

export function showErrorToast(message: string): void {
  showToast({ message, intent: Intent.DANGER, timeoutMs: ERROR_TOAST_MS });
}

/** A message carried over a reload (a lost session is told on the sign-in page). */
const FLASH_KEY = 'roost.flash';

export function keepFlash(message: string): void {
  try {
    sessionStorage.setItem(FLASH_KEY, message);
  } catch {
    // Storage refused (private mode, quota): the user still lands on the sign-in page.
  }
}

export function showFlash(): void {
  let message: string | null;
  try {
    message = sessionStorage.getItem(FLASH_KEY);
    sessionStorage.removeItem(FLASH_KEY);
  } catch {
    message = null;
  }
  if (message) showErrorToast(message);
}
