import { makeAutoObservable } from 'mobx';

/**
 * Without the socket, the houses and the alarm counts are fetched this often; pages that keep
 * their own figures fresh (today's alarms) use the same period.
 */
export const POLL_INTERVAL_MS = 30_000;

/**
 * connecting → live → polling (every 30 s while the socket is down) → live, and offline (the
 * browser has no network). `idle` before sign-in.
 */
export type LiveState = 'idle' | 'connecting' | 'live' | 'polling' | 'offline';

/** The connection state shown on screen; src/realtime drives it. */
export class LiveStore {
  state: LiveState = 'idle';
  /** When the houses were last refreshed (snapshot or delta), ms. */
  lastUpdateAt: number | null = null;

  constructor() {
    makeAutoObservable(this);
  }

  setState(state: LiveState): void {
    this.state = state;
  }

  markUpdated(at: number): void {
    this.lastUpdateAt = at;
  }
}
