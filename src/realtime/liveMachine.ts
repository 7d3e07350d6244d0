import { type LiveState } from '../stores/LiveStore';

/** What can happen to the live connection. */
export type LiveEvent =
  | 'start'
  | 'connected'
  | 'snapshotLoaded'
  | 'connectError'
  | 'disconnected'
  | 'snapshotTimeout'
  | 'browserOffline'
  | 'browserOnline'
  | 'stop';

/**
 * The live ↔ poll state machine (connecting → live → polling, shown on screen), as a pure
 * function so it can be read and tested on its own. `live` needs the socket AND a fresh
 * snapshot: deltas never apply to a snapshot older than the connection.
 */
export function nextLiveState(state: LiveState, event: LiveEvent): LiveState {
  switch (event) {
    case 'stop':
      return 'idle';
    case 'start':
      return state === 'idle' ? 'connecting' : state;
    case 'browserOffline':
      return state === 'idle' ? state : 'offline';
    case 'browserOnline':
      return state === 'offline' ? 'connecting' : state;
    case 'connected':
      // Polling keeps polling until the snapshot of this connection lands.
      return state;
    case 'snapshotLoaded':
      return state === 'connecting' || state === 'polling' ? 'live' : state;
    case 'connectError':
    case 'disconnected':
    case 'snapshotTimeout':
      return state === 'connecting' || state === 'live' ? 'polling' : state;
  }
}
