import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Command } from '../../src/contract/envcontrol';
import type { LogSource } from '../../src/contract/domain';
import type { FunctionKey, Operation } from '../../src/contract/operationLog';
import type { Database, Db } from '../db/client';
import { gatewayCommands } from '../db/envcontrolSchema';
import type { ServerEvents } from '../events';
import { writeOperationLog } from '../oplog';
import { paramsOfGateways, readCommands } from './commandRows';

export interface CommandTarget {
  houseId: number;
  houseName: string;
  gatewayId: number;
  networkId: string;
}

/** Kinds of command a manager queues for many gateways at once; a gateway has one open each. */
export type QueuedKind = 'config' | 'upgrade';

/** What every queued command carries, whatever its kind. */
export interface CommandBatch<T extends CommandTarget> {
  targets: readonly T[];
  expiresAt: Date;
  operator: { id: number; name: string };
  source: LogSource;
}

/** What a kind of command adds to the shared way of queuing it. */
export interface CommandKind<T extends CommandTarget> {
  kind: QueuedKind;
  /**
   * The new command's parameters for one target, from the parameters of the unfinished
   * commands of the same kind it supersedes.
   */
  params(target: T, superseded: readonly Record<string, unknown>[]): Record<string, unknown>;
  /** Rows the kind keeps beside its command (an upgrade's file), in the same transaction. */
  store?(db: Db, commandId: string, target: T): Promise<void>;
  /** The operation-log row of one new command. */
  log(target: T, commandId: string): { function: FunctionKey; operation: Operation };
}

/**
 * Stores one command per target, superseding the gateway's unfinished command of the same
 * kind, then tells every open console and the dispatcher. Each new command writes one
 * operation-log row, after the commands are safe (the log is append-only). Answers the new
 * commands, in the order of the targets.
 */
export async function enqueueCommands<T extends CommandTarget>(
  database: Database,
  events: ServerEvents,
  kind: CommandKind<T>,
  batch: CommandBatch<T>,
): Promise<Command[]> {
  const created: string[] = [];
  const superseded: string[] = [];
  await database.transaction(async ({ db }) => {
    for (const target of batch.targets) {
      const open = await db
        .update(gatewayCommands)
        .set({ state: 'superseded', reason: 'superseded', finishedAt: sql`now()` })
        .where(
          and(
            eq(gatewayCommands.gatewayId, target.gatewayId),
            eq(gatewayCommands.kind, kind.kind),
            inArray(gatewayCommands.state, ['queued', 'sent']),
          ),
        )
        .returning({ id: gatewayCommands.id, params: gatewayCommands.params });
      superseded.push(...open.map((r) => r.id));
      const older = open.map(
        (r) =>
          (typeof r.params === 'string' ? JSON.parse(r.params) : (r.params ?? {})) as Record<
            string,
            unknown
          >,
      );
      const id = randomUUID();
      await db.insert(gatewayCommands).values({
        id,
        gatewayId: target.gatewayId,
        houseId: target.houseId,
        kind: kind.kind,
        state: 'queued',
        // The column is typed for configuration values; an upgrade's parameters are empty.
        params: kind.params(target, older) as Record<string, number>,
        requestedBy: batch.operator.id,
        requestedByName: batch.operator.name,
        source: batch.source,
        expiresAt: batch.expiresAt,
      });
      await kind.store?.(db, id, target);
      created.push(id);
    }
  });
  for (const [i, target] of batch.targets.entries()) {
    await writeOperationLog(database.db, {
      operator: batch.operator,
      ...kind.log(target, created[i]!),
      house: { id: target.houseId, name: target.houseName },
      source: batch.source,
      networkId: target.networkId,
    });
  }
  const changed = await readCommands(database.db, [...superseded, ...created]);
  void events.emit('commandsChanged', changed);
  void events.emit('commandsQueued', [...new Set(batch.targets.map((t) => t.gatewayId))]);
  const mine = new Set(created);
  return changed.filter((c) => mine.has(c.id));
}

export interface QueueRequest extends CommandBatch<CommandTarget> {
  params: Record<string, number>;
}

/**
 * One configuration command per house. A gateway's older command that has not been applied
 * yet is superseded: its values are carried into the new one (the newer value wins), so the
 * gateway gets one message with everything still asked of it.
 */
export async function queueConfig(
  database: Database,
  events: ServerEvents,
  request: QueueRequest,
): Promise<Command[]> {
  // What each gateway last reported for the asked keys, so the log says "35 ℃ → 33 ℃".
  const reported = await paramsOfGateways(database.db, [
    ...new Set(request.targets.map((t) => t.gatewayId)),
  ]);
  const beforeOf = (gatewayId: number) => {
    const held = reported.get(gatewayId) ?? {};
    return Object.fromEntries(
      Object.keys(request.params)
        .filter((key) => Object.hasOwn(held, key))
        .map((key) => [key, held[key]]),
    );
  };
  return enqueueCommands(
    database,
    events,
    {
      kind: 'config',
      params: (_target, older) => Object.assign({}, ...older, request.params),
      log: (target, id) => ({
        function: 'envcontrol.send',
        operation: {
          key: 'configCommand',
          params: {
            command: id,
            values: JSON.stringify(request.params),
            before: JSON.stringify(beforeOf(target.gatewayId)),
          },
        },
      }),
    },
    request,
  );
}
