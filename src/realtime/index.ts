import { reaction } from 'mobx';
import { type ApiClient } from '../api/client';
import { LiveConnection, type LiveStores } from './LiveConnection';

export { POLL_INTERVAL_MS } from './LiveConnection';

/** What the live connection needs from the RootStore. */
export interface RealtimeRoot extends LiveStores {
  api: ApiClient;
  session: { readonly token: string | undefined };
}

/** The running connection; one per page, like its socket. */
let active: LiveConnection | null = null;

/** Whether the live connection runs (it then owns the alarm count too). */
export function isRealtimeRunning(): boolean {
  return active !== null;
}

/**
 * Runs the live connection while a session token exists: sign-in starts it, logout (the token
 * cleared) stops it and forgets the houses. Returns the function that ends it for good.
 */
export function startRealtime(root: RealtimeRoot): () => void {
  let connection: LiveConnection | null = null;
  const stopConnection = () => {
    connection?.stop();
    if (active === connection) active = null;
    connection = null;
  };
  const dispose = reaction(
    () => root.session.token,
    (token) => {
      stopConnection();
      if (!token) return;
      connection = new LiveConnection(root.api, () => root.session.token, root);
      active = connection;
      connection.start();
    },
    { fireImmediately: true },
  );
  return () => {
    dispose();
    stopConnection();
  };
}

/**
 * Full-rate readings of one house while the returned function has not been called (the
 * monitor page, in an effect). Without a connection it does nothing.
 */
export function subscribeHouse(houseId: number): () => void {
  return active?.subscribeHouse(houseId) ?? (() => undefined);
}

/** Fetches the houses now (a page that needs them before the next poll or delta). */
export function refreshHouses(): void {
  void active?.refresh();
}
