import type { Server } from 'socket.io';
import type { Command } from '../../src/contract/envcontrol';
import { canSeeHouse, type Scope } from '../auth/scope';
import type { ServerEvents } from '../events';

/**
 * Sends every command change to the sockets whose scope holds the command's house, as
 * `command:updated`: each open console shows a command move through its states. With the
 * Redis adapter the other processes hear it too and deliver it to their own sockets.
 */
export function listenCommandEvents(
  // The hub's server, typed loosely: this module adds events without reshaping the hub's types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  io: Server<any, any, any, { scope: Scope }>,
  events: ServerEvents,
  /** True when other processes share the hub (Redis adapter). */
  shared: () => boolean,
): void {
  const deliver = (commands: readonly Command[]) => {
    for (const socket of io.of('/').sockets.values()) {
      const scope = socket.data.scope;
      if (!scope) continue;
      for (const command of commands)
        if (canSeeHouse(scope, command.houseId)) socket.emit('command:updated', command);
    }
  };
  io.on('command:changed', deliver);
  events.on('commandsChanged', (commands) => {
    deliver(commands);
    if (shared()) io.serverSideEmit('command:changed', commands);
  });
}
