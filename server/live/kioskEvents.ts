import type { Socket } from 'socket.io';
import type { ServerToClientEvents } from '../../src/contract/live';

/**
 * What a wall opened by a kiosk link (src/screens/wall/KioskWallPage: the houses, live and
 * alarm stores fed by LiveConnection) uses: its houses' changes, whole or packed as status, and
 * their alarms and open-alarm count. Such a wall hangs in a public room with nobody signed in,
 * so it hears these and nothing else: not who sent which command to a gateway
 * (`command:updated` carries the staff member's name, the network id and the parameters), not
 * silences, not full-rate readings (it opens no monitor), nor whatever a feature adds later.
 */
export const KIOSK_EVENTS: ReadonlySet<keyof ServerToClientEvents> = new Set([
  'house:updated',
  'house:status',
  'alarm:count',
  'alarm:raised',
  'alarm:acknowledged',
  'alarm:cleared',
] as const);

/** Whether a kiosk socket may hear an event (and so join the rooms that carry it). */
export function kioskHears(event: keyof ServerToClientEvents): boolean {
  return KIOSK_EVENTS.has(event);
}

/**
 * Makes a kiosk socket deaf to every event outside KIOSK_EVENTS, whichever module emits it:
 * features deliver by walking the hub's sockets and calling `emit` (envcontrol/live.ts,
 * notify/live.ts), so the allow-list is held here, on the socket, rather than in each of them.
 * Room broadcasts do not pass through `emit`; the hub lets a kiosk socket into no room whose
 * events it may not hear (the monitor rooms carry `house:reading`).
 */
export function hearOnlyKioskEvents(socket: Socket): void {
  const emit = socket.emit.bind(socket);
  const filtered = (event: string, ...args: unknown[]): boolean =>
    kioskHears(event as keyof ServerToClientEvents) ? emit(event, ...args) : false;
  socket.emit = filtered as typeof socket.emit;
}
