import { randomUUID } from 'node:crypto';
import {
  DEVICE_LOG_KEEP,
  DEVICE_LOG_WAIT_SECONDS,
  type DeviceLog,
} from '../../src/contract/deviceLog';
import type { DeviceLogReply } from '../../src/contract/gateway';
import type { Command } from '../../src/contract/envcontrol';
import type { LogSource } from '../../src/contract/domain';
import type { Database, Query } from '../db/client';
import type { ServerEvents } from '../events';
import { writeOperationLog } from '../oplog';
import { readCommands } from './commandRows';
import type { CommandTarget } from './queue';

/**
 * Asks a gateway for its log: a command of kind `log` that waits DEVICE_LOG_WAIT_SECONDS,
 * one operation-log row, and the dispatcher told. Answers the command's id. While the gateway
 * has a log request open, a new request joins it instead of asking again: one log/get answers
 * everyone waiting (60 requests, 30 at a time, once sent 1,771 log/get to one gateway).
 */
export async function requestDeviceLog(
  database: Database,
  events: ServerEvents,
  request: { target: CommandTarget; operator: { id: number; name: string }; source: LogSource },
): Promise<string> {
  const { target, operator } = request;
  const { id, joined } = await database.transaction(async ({ query }) => {
    // The gateway's row, locked: two requests (or two server processes) never both ask.
    await query('select id from gateways where id = $1 for update', [target.gatewayId]);
    const [open] = await query<{ id: string }>(
      `select id from gateway_commands where gateway_id = $1 and kind = 'log'
         and state in ('queued', 'sent') and expires_at > now()
       order by created_at desc limit 1`,
      [target.gatewayId],
    );
    if (open) return { id: open.id, joined: true };
    const created = randomUUID();
    await query(
      `insert into gateway_commands (id, gateway_id, house_id, kind, state, params, requested_by, requested_by_name, source, expires_at)
       values ($1, $2, $3, 'log', 'queued', '{}'::jsonb, $4, $5, $6, now() + make_interval(secs => $7))`,
      [
        created,
        target.gatewayId,
        target.houseId,
        operator.id,
        operator.name,
        request.source,
        DEVICE_LOG_WAIT_SECONDS,
      ],
    );
    return { id: created, joined: false };
  });
  await writeOperationLog(database.db, {
    operator,
    function: 'envcontrol.deviceLog',
    operation: { key: 'loadDeviceLog', params: {} },
    house: { id: target.houseId, name: target.houseName },
    source: request.source,
    networkId: target.networkId,
  });
  if (!joined) {
    void events.emit('commandsChanged', await readCommands(database.query, [id]));
    void events.emit('commandsQueued', [target.gatewayId]);
  }
  return id;
}

/**
 * A gateway's answer to one of its own log requests: kept, and the request applied. Older
 * logs of the gateway beyond DEVICE_LOG_KEEP go. A repeat, or an answer to another gateway's
 * request, changes nothing. Answers the ids that changed.
 */
export async function recordDeviceLog(
  database: Database,
  gatewayId: number,
  reply: DeviceLogReply,
): Promise<string[]> {
  return database.transaction(async ({ query }) => {
    const [row] = await query<{ house_id: number }>(
      `update gateway_commands set state = 'applied', finished_at = now()
       where id = $1 and gateway_id = $2 and kind = 'log' and state in ('queued', 'sent')
       returning house_id`,
      [reply.id, gatewayId],
    );
    if (!row) return [];
    await query(
      `insert into gateway_logs (command_id, gateway_id, house_id, lines) values ($1, $2, $3, $4::jsonb)`,
      [reply.id, gatewayId, row.house_id, JSON.stringify(reply.lines)],
    );
    await query(
      `delete from gateway_logs where gateway_id = $1 and command_id not in (
         select command_id from gateway_logs where gateway_id = $1
         order by received_at desc limit $2)`,
      [gatewayId, DEVICE_LOG_KEEP],
    );
    return [reply.id];
  });
}

/** The house's kept logs, newest first. */
export async function deviceLogsOfHouse(query: Query, houseId: number): Promise<DeviceLog[]> {
  const rows = await query<{ command_id: string; received_at: Date | string; lines: unknown }>(
    `select command_id, received_at, lines from gateway_logs where house_id = $1
     order by received_at desc limit $2`,
    [houseId, DEVICE_LOG_KEEP],
  );
  return rows.map((r) => ({
    commandId: r.command_id,
    at: new Date(r.received_at).toISOString(),
    lines: (typeof r.lines === 'string' ? JSON.parse(r.lines) : r.lines) as string[],
  }));
}

/** The waits under way in this process, by command id: joined requests share one. */
const waits = new Map<string, Promise<Command | null>>();

/**
 * Waits until a command is final (applied, rejected, expired), reading the database so an
 * answer heard by another server process counts too; null if it is still open after `ms`.
 * Requests waiting for the same command share one reader.
 */
export function finalCommand(database: Database, id: string, ms: number): Promise<Command | null> {
  const shared = waits.get(id);
  if (shared) return shared;
  const wait = pollFinal(database, id, ms).finally(() => waits.delete(id));
  waits.set(id, wait);
  return wait;
}

async function pollFinal(database: Database, id: string, ms: number): Promise<Command | null> {
  const until = Date.now() + ms;
  for (;;) {
    const [command] = await readCommands(database.query, [id]);
    if (command && command.state !== 'queued' && command.state !== 'sent') return command;
    if (Date.now() >= until) return null;
    await new Promise((r) => setTimeout(r, 200));
  }
}
