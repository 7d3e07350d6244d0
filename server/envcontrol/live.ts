import type { Server } from 'socket.io';
import type { Command, GatewayReported } from '../../src/contract/envcontrol';
import { canSeeHouse, type Scope } from '../auth/scope';
import type { ServerEvents } from '../events';

/**
 * Sends every command change to the sockets whose scope holds the command's house, as
 * `command:updated`: each open console shows a command move through its states. A gateway's
 * own report (parameters changed at the controller, a new firmware version) goes the same way
 * as `gateway:reported`. With the Redis adapter the other processes hear them too and deliver
 * them to their own sockets.
 */
export function listenCommandEvents(
  // The hub's server, typed loosely: this module adds events without reshaping the hub's types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  io: Server<any, any, any, { scope: Scope }>,
  events: ServerEvents,
  /** True when other processes share the hub (Redis adapter). */
  shared: () => boolean,
): void {
  const deliver = <T extends { houseId: number }>(event: string, items: readonly T[]) => {
    for (const socket of io.of('/').sockets.values()) {
      const scope = socket.data.scope;
      if (!scope) continue;
      for (const item of items) if (canSeeHouse(scope, item.houseId)) socket.emit(event, item);
    }
  };
  io.on('command:changed', (commands: readonly Command[]) => deliver('command:updated', commands));
  io.on('gateway:changed', (reports: readonly GatewayReported[]) =>
    deliver('gateway:reported', reports),
  );
  events.on('commandsChanged', (commands) => {
    deliver('command:updated', commands);
    if (shared()) io.serverSideEmit('command:changed', commands);
  });
  events.on('gatewayReported', (reports) => {
    deliver('gateway:reported', reports);
    if (shared()) io.serverSideEmit('gateway:changed', reports);
  });
}
