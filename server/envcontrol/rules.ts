import type { SessionUser } from '../auth/sessions';

/** A command waits this long for its gateway unless the request says otherwise. */
export const DEFAULT_EXPIRY_SECONDS = 3600;

/** Remote configuration needs both the operating permission and the remote-configuration flag. */
export function canSend(user: SessionUser): boolean {
  return user.canOperate && user.remoteConfig;
}
