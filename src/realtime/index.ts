import { reaction } from 'mobx';
import { type ApiClient } from '../api/client';
import { LiveConnection, type LiveStores } from './LiveConnection';
import { createLiveSocket, type LiveSocketFactory } from './socket';

/** What the live connection needs from the RootStore. */
export interface RealtimeRoot extends LiveStores {
  api: ApiClient;
  session: { readonly token: string | undefined };
}

/**
 * Runs the live connection while a session token exists: sign-in starts it, logout (the token
 * cleared) stops it and forgets the houses. The houses store follows houses through whichever
 * connection runs. Returns the function that ends it for good.
 */
export function startRealtime(
  root: RealtimeRoot,
  openSocket: LiveSocketFactory = createLiveSocket,
): () => void {
  let connection: LiveConnection | null = null;
  const stopConnection = () => {
    root.houses.useFeed(null);
    connection?.stop();
    connection = null;
  };
  const dispose = reaction(
    () => root.session.token,
    (token) => {
      stopConnection();
      if (!token) return;
      connection = new LiveConnection(root.api, () => root.session.token, root, openSocket);
      connection.start();
      root.houses.useFeed(connection);
    },
    { fireImmediately: true },
  );
  return () => {
    dispose();
    stopConnection();
  };
}
