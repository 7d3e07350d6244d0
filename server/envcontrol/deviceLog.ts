import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, notInArray, sql } from 'drizzle-orm';
import {
  DEVICE_LOG_KEEP,
  DEVICE_LOG_WAIT_SECONDS,
  type DeviceLog,
} from '../../src/contract/deviceLog';
import type { DeviceLogReply } from '../../src/contract/gateway';
import type { Command } from '../../src/contract/envcontrol';
import type { LogSource } from '../../src/contract/domain';
import type { Database, Db } from '../db/client';
import { gatewayCommands, gatewayLogs } from '../db/envcontrolSchema';
import { gateways } from '../db/schema';
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
  const { id, joined } = await database.transaction(async ({ db }) => {
    // The gateway's row, locked: two requests (or two server processes) never both ask.
    await db
      .select({ id: gateways.id })
      .from(gateways)
      .where(eq(gateways.id, target.gatewayId))
      .for('update');
    const c = gatewayCommands;
    const [open] = await db
      .select({ id: c.id })
      .from(c)
      .where(
        and(
          eq(c.gatewayId, target.gatewayId),
          eq(c.kind, 'log'),
          inArray(c.state, ['queued', 'sent']),
          gt(c.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(c.createdAt))
      .limit(1);
    if (open) return { id: open.id, joined: true };
    const created = randomUUID();
    await db.insert(c).values({
      id: created,
      gatewayId: target.gatewayId,
      houseId: target.houseId,
      kind: 'log',
      state: 'queued',
      params: {},
      requestedBy: operator.id,
      requestedByName: operator.name,
      source: request.source,
      expiresAt: sql`now() + make_interval(secs => ${DEVICE_LOG_WAIT_SECONDS})`,
    });
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
    void events.emit('commandsChanged', await readCommands(database.db, [id]));
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
  return database.transaction(async ({ db }) => {
    const c = gatewayCommands;
    const [row] = await db
      .update(c)
      .set({ state: 'applied', finishedAt: sql`now()` })
      .where(
        and(
          eq(c.id, reply.id),
          eq(c.gatewayId, gatewayId),
          eq(c.kind, 'log'),
          inArray(c.state, ['queued', 'sent']),
        ),
      )
      .returning({ houseId: c.houseId });
    if (!row) return [];
    await db
      .insert(gatewayLogs)
      .values({ commandId: reply.id, gatewayId, houseId: row.houseId, lines: reply.lines });
    const kept = db
      .select({ commandId: gatewayLogs.commandId })
      .from(gatewayLogs)
      .where(eq(gatewayLogs.gatewayId, gatewayId))
      .orderBy(desc(gatewayLogs.receivedAt))
      .limit(DEVICE_LOG_KEEP);
    await db
      .delete(gatewayLogs)
      .where(and(eq(gatewayLogs.gatewayId, gatewayId), notInArray(gatewayLogs.commandId, kept)));
    return [reply.id];
  });
}

/** The house's kept logs, newest first. */
export async function deviceLogsOfHouse(db: Db, houseId: number): Promise<DeviceLog[]> {
  const rows = await db
    .select({
      commandId: gatewayLogs.commandId,
      receivedAt: gatewayLogs.receivedAt,
      lines: gatewayLogs.lines,
    })
    .from(gatewayLogs)
    .where(eq(gatewayLogs.houseId, houseId))
    .orderBy(desc(gatewayLogs.receivedAt))
    .limit(DEVICE_LOG_KEEP);
  return rows.map((r) => ({
    commandId: r.commandId,
    at: r.receivedAt.toISOString(),
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
    const [command] = await readCommands(database.db, [id]);
    if (command && command.state !== 'queued' && command.state !== 'sent') return command;
    if (Date.now() >= until) return null;
    await new Promise((r) => setTimeout(r, 200));
  }
}
