/**
 * Sessions ending (logout, password change) must end their live sockets within a second
 * (RELIABILITY.md). HTTP routes announce it here; the live hub listens. Neither knows the other.
 */
export interface SessionListener {
  sessionEnded(tokenHash: string): void;
  otherSessionsEnded(userId: number, keepTokenHash: string): void;
}

export class SessionEvents {
  private readonly listeners: SessionListener[] = [];

  listen(listener: SessionListener): void {
    this.listeners.push(listener);
  }

  sessionEnded(tokenHash: string): void {
    for (const l of this.listeners) l.sessionEnded(tokenHash);
  }

  otherSessionsEnded(userId: number, keepTokenHash: string): void {
    for (const l of this.listeners) l.otherSessionsEnded(userId, keepTokenHash);
  }
}
