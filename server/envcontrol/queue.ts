import { randomUUID } from 'node:crypto';
import type { Command } from '../../src/contract/envcontrol';
import type { LogSource } from '../../src/contract/domain';
import type { Database } from '../db/client';
import type { ServerEvents } from '../events';
import { writeOperationLog } from '../oplog';
import { readCommands } from './commandRows';

export interface CommandTarget {
  houseId: number;
  houseName: string;
  gatewayId: number;
  networkId: string;
}

export interface QueueRequest {
  targets: readonly CommandTarget[];
  params: Record<string, number>;
  expiresAt: Date;
  operator: { id: number; name: string };
  source: LogSource;
}

/**
 * Stores one configuration command per house, then tells the dispatcher. A gateway's older
 * command that has not been applied yet is superseded: its values are carried into the new one
 * (the newer value wins), so the gateway gets one message with everything still asked of it.
 * Each new command writes one operation-log row.
 */
export async function queueConfig(
  database: Database,
  events: ServerEvents,
  request: QueueRequest,
): Promise<Command[]> {
  const created: string[] = [];
  const superseded: string[] = [];
  await database.transaction(async (query) => {
    for (const target of request.targets) {
      const open = await query<{ id: string; params: unknown }>(
        `update gateway_commands set state = 'superseded', reason = 'superseded', finished_at = now()
         where gateway_id = $1 and kind = 'config' and state in ('queued', 'sent')
         returning id, params`,
        [target.gatewayId],
      );
      let params: Record<string, number> = {};
      for (const row of open) {
        superseded.push(row.id);
        const older = (
          typeof row.params === 'string' ? JSON.parse(row.params) : row.params
        ) as Record<string, number>;
        params = { ...params, ...older };
      }
      params = { ...params, ...request.params };
      const id = randomUUID();
      await query(
        `insert into gateway_commands (id, gateway_id, house_id, kind, state, params, requested_by, requested_by_name, source, expires_at)
         values ($1, $2, $3, 'config', 'queued', $4::jsonb, $5, $6, $7, $8)`,
        [
          id,
          target.gatewayId,
          target.houseId,
          JSON.stringify(params),
          request.operator.id,
          request.operator.name,
          request.source,
          request.expiresAt,
        ],
      );
      created.push(id);
    }
  });
  // One log row per command, written after the commands are safe (the log is append-only).
  for (const [i, target] of request.targets.entries()) {
    await writeOperationLog(database.db, {
      operator: request.operator,
      function: 'envcontrol.send',
      operation: {
        key: 'configCommand',
        params: { command: created[i]!, values: JSON.stringify(request.params) },
      },
      house: { id: target.houseId, name: target.houseName },
      source: request.source,
      networkId: target.networkId,
    });
  }
  const changed = await readCommands(database.query, [...superseded, ...created]);
  void events.emit('commandsChanged', changed);
  void events.emit('commandsQueued', [...new Set(request.targets.map((t) => t.gatewayId))]);
  const mine = new Set(created);
  return changed.filter((c) => mine.has(c.id));
}
