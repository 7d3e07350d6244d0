import { and, asc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  DEVICE_LOG_LINES,
  gatewayTopic,
  type ConfigAck,
  type ConfigReport,
  type ConfigSet,
  type GatewayReplyTopic,
  type LogGet,
} from '../../src/contract/gateway';
import { recordDeviceLog } from './deviceLog';
import { recordProgress, upgradeOrder } from '../upgrade/commands';
import type { Database } from '../db/client';
import { gatewayCommands } from '../db/envcontrolSchema';
import { gateways } from '../db/schema';
import { houseState } from '../db/telemetrySchema';
import type { ServerEvents } from '../events';
import type { GatewayDirectory, GatewayInfo } from '../ingest/gatewayDirectory';
import { readCommands, recordParams } from './commandRows';
import { finishAcknowledged } from './dispatcher.sql';
import { parseReply, type ParsedReply, type ReplyRefusal } from './replies';
import { announceVersion, storeReport } from './reports';

/** Sends a message to a gateway at QoS 1: the embedded broker or the external one. */
export type GatewayPublish = (topic: string, payload: string) => Promise<void>;

/**
 * A command sent but not acknowledged is sent again after this long while its gateway is
 * online: a gateway that lost the message (a dropped connection) gets it again, and a gateway
 * applies a command id once, so a resend is harmless.
 */
export const RESEND_AFTER_MS = 15_000;
/** Expiry and resends are checked this often: a command's expiry shows within a second. */
const SWEEP_INTERVAL_MS = 1_000;
/** At most this many acknowledgements in one transaction. */
const ACK_BATCH = 500;

interface OpenCommand {
  id: string;
  kind: string;
  gatewayId: number;
  networkId: string;
  params: unknown;
  expiresAt: Date;
  state: string;
}

interface PendingAck {
  gateway: GatewayInfo;
  ack: ConfigAck;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface DispatcherOptions {
  database: Database;
  events: ServerEvents;
  directory: GatewayDirectory;
  log: FastifyBaseLogger;
  resendAfterMs?: number;
  /**
   * Where gateways reach this server over HTTP (`http://host:port`), for upgrade download
   * links; null until known (upgrade commands wait).
   */
  downloadBase?: () => string | null;
}

/**
 * The gateway side of commands: sends stored commands to online gateways (now, when a gateway
 * comes back, and again until acknowledged), records acknowledgements and reports, and expires
 * what waited too long. Everything it knows is in the database, so a restarted server carries
 * on where it stopped.
 */
export class CommandDispatcher {
  private publish: GatewayPublish | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private readonly resendAfterMs: number;
  private pendingAcks: PendingAck[] = [];
  private ackFlush: Promise<void> | null = null;
  /** Per network id, the end of its last report's or progress report's handling (`inTurn`). */
  private readonly progressOf = new Map<string, Promise<void>>();

  constructor(private readonly options: DispatcherOptions) {
    this.resendAfterMs = options.resendAfterMs ?? RESEND_AFTER_MS;
  }

  start(publish: GatewayPublish | null): void {
    this.publish = publish;
    const { events } = this.options;
    // Only the new commands: a command sent already goes again when its gateway comes back or
    // after RESEND_AFTER_MS, never because another was queued (30 log requests at once re-sent
    // each other's log/get, 1,771 messages to one gateway).
    events.on('commandsQueued', (gatewayIds) => this.dispatchMany(gatewayIds, false, true));
    events.on('gatewayStatus', async (states) => {
      const back = states.filter((s) => s.online).map((s) => s.houseId);
      if (back.length === 0) return;
      const rows = await this.options.database.db
        .select({ id: gateways.id })
        .from(gateways)
        .where(inArray(gateways.houseId, back));
      void this.dispatchMany(
        rows.map((r) => r.id),
        true,
      );
    });
    // The gateway subscribed: it listens now, whatever its status said before.
    events.on('gatewayListening', (gatewayId) => this.dispatch(gatewayId, true));
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((error: unknown) => this.options.log.warn({ err: error }, 'command sweep failed'))
        .finally(() => (this.sweeping = null));
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
    await this.ackFlush;
  }

  /**
   * A gateway's answer (config/ack, config/report …); the refusal when the payload was refused.
   * A gateway's reports and progress are handled in the order they came, one at a time: one
   * gateway never holds more than one of the database's connections for its reports, however
   * many it sends at once.
   */
  submitReply(
    networkId: string,
    kind: GatewayReplyTopic,
    payload: Buffer,
  ): Promise<ReplyRefusal | null> {
    // Checked before any look-up: a refused message costs no query.
    const reply = parseReply(kind, payload);
    if ('reason' in reply) return Promise.resolve(reply);
    // Progress reports in the order they came, from here on: even the gateway's look-up below
    // may answer a later report first.
    return reply.kind === 'upgrade/progress' || reply.kind === 'config/report'
      ? this.inTurn(networkId, () => this.handleReply(networkId, reply))
      : this.handleReply(networkId, reply);
  }

  private async handleReply(networkId: string, reply: ParsedReply): Promise<ReplyRefusal | null> {
    const gateway = await this.options.directory.find(networkId);
    if (!gateway) return { reason: 'unknownGateway', detail: 'no such network id' };
    if (reply.kind === 'config/ack') await this.acknowledged(gateway, reply.data);
    else if (reply.kind === 'config/report') await this.reported(gateway, reply.data);
    else if (reply.kind === 'log')
      await this.changed(
        await recordDeviceLog(this.options.database, gateway.gatewayId, reply.data),
      );
    else {
      const progress = await recordProgress(this.options.database, gateway.gatewayId, reply.data);
      await announceVersion(this.options.events, progress.states);
      await this.changed(progress.ids);
    }
    return null;
  }

  /**
   * Acknowledgements are written in batches: those that arrive while a batch is being written
   * wait for the next one, so 500 gateways answering at once cost a few transactions, not 500.
   * Each caller still waits until its own acknowledgement is stored.
   */
  private acknowledged(gateway: GatewayInfo, ack: ConfigAck): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pendingAcks.push({ gateway, ack, resolve, reject });
      this.flushAcks();
    });
  }

  private flushAcks(): void {
    if (this.ackFlush || this.pendingAcks.length === 0) return;
    const batch = this.pendingAcks.splice(0, ACK_BATCH);
    this.ackFlush = this.writeAcks(batch)
      .then(
        () => batch.forEach((a) => a.resolve()),
        (error: unknown) => batch.forEach((a) => a.reject(error)),
      )
      .finally(() => {
        this.ackFlush = null;
        this.flushAcks();
      });
  }

  private async writeAcks(batch: readonly PendingAck[]): Promise<void> {
    const { database } = this.options;
    // The first answer to an id wins; a repeat in the same batch is a duplicate.
    const seen = new Set<string>();
    const acks = batch.filter((a) => {
      const key = `${a.gateway.gatewayId}:${a.ack.id}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const done = await database.transaction(async ({ db, query }) => {
      const rows = await finishAcknowledged(
        query,
        acks.map((a) => ({
          commandId: a.ack.id,
          gatewayId: a.gateway.gatewayId,
          status: a.ack.status,
          values: a.ack.values ?? null,
          reason: a.ack.status === 'rejected' ? (a.ack.reason ?? 'rejected') : null,
        })),
      );
      // In gateway order, so two batches never lock gateway rows in opposite orders.
      const applied = rows
        .filter((r) => r.state === 'applied' && r.readBack !== null)
        .sort((a, b) => a.gatewayId - b.gatewayId);
      for (const row of applied)
        await recordParams(db, {
          gatewayId: row.gatewayId,
          houseId: row.houseId,
          values: row.readBack!,
          source: 'console',
          operatorName: row.requestedByName,
          commandId: row.id,
          replace: false,
        });
      return rows.map((r) => r.id);
    });
    await this.changed(done);
  }

  private async reported(gateway: GatewayInfo, report: ConfigReport): Promise<void> {
    await storeReport(this.options.database, this.options.events, gateway, report);
    // A gateway reports its whole set ('device') when it connects: it is listening now, send
    // what waits. A local change's report is no reconnect and re-sends nothing.
    if (report.source === 'device') await this.dispatch(gateway.gatewayId, true);
  }

  /**
   * Sends the open commands of these gateways. `online` says the caller knows they are there
   * (they just spoke); otherwise their last status decides, and an offline gateway's commands
   * wait. One read for all gateways, the messages published together, one write marking them
   * sent: a change to 500 houses is a few queries, not 1,500. `queuedOnly`: the commands not
   * sent yet, and no resend.
   */
  async dispatchMany(
    gatewayIds: readonly number[],
    online: boolean,
    queuedOnly = false,
  ): Promise<void> {
    const publish = this.publish;
    if (!publish || gatewayIds.length === 0) return;
    const { database, log } = this.options;
    const c = gatewayCommands;
    let read = database.db
      .select({
        id: c.id,
        kind: c.kind,
        gatewayId: c.gatewayId,
        networkId: gateways.networkId,
        params: c.params,
        expiresAt: c.expiresAt,
        state: c.state,
      })
      .from(c)
      .innerJoin(gateways, eq(gateways.id, c.gatewayId))
      .$dynamic();
    if (!online)
      read = read.innerJoin(
        houseState,
        and(eq(houseState.gatewayId, c.gatewayId), eq(houseState.online, true)),
      );
    const open: OpenCommand[] = await read
      .where(
        and(
          inArray(c.gatewayId, [...new Set(gatewayIds)]),
          inArray(c.state, queuedOnly ? ['queued'] : ['queued', 'sent']),
          gt(c.expiresAt, sql`now()`),
        ),
      )
      .orderBy(asc(c.createdAt));
    if (open.length === 0) return;
    const published = await Promise.all(
      open.map(async (command) => {
        try {
          const message = await this.messageOf(command);
          if (!message) return null;
          await publish(gatewayTopic(command.networkId, message.topic), message.payload);
          return command;
        } catch (error) {
          log.warn({ err: error, command: command.id }, 'sending a command failed');
          return null;
        }
      }),
    );
    const sent = published.filter((c) => c !== null);
    if (sent.length === 0) return;
    const sentIds = sent.map((command) => command.id);
    const rows = await database.db
      .update(gatewayCommands)
      .set({ state: 'sent', sentAt: sql`now()` })
      .where(
        and(
          inArray(gatewayCommands.id, sentIds),
          inArray(gatewayCommands.state, ['queued', 'sent']),
        ),
      )
      .returning({ id: gatewayCommands.id });
    const wasQueued = new Set(sent.filter((c) => c.state === 'queued').map((c) => c.id));
    await this.changed(rows.map((r) => r.id).filter((id) => wasQueued.has(id)));
  }

  /** What sends a command: its topic and payload by kind; null when it cannot go yet. */
  private async messageOf(
    command: OpenCommand,
  ): Promise<{ topic: 'config/set' | 'upgrade' | 'log/get'; payload: string } | null> {
    if (command.kind === 'log')
      return {
        topic: 'log/get',
        payload: JSON.stringify({ id: command.id, lines: DEVICE_LOG_LINES } satisfies LogGet),
      };
    if (command.kind === 'upgrade') {
      const base = this.options.downloadBase?.() ?? null;
      if (!base) return null;
      const order = await upgradeOrder(
        this.options.database.db,
        { id: command.id, gatewayId: command.gatewayId, networkId: command.networkId },
        base,
      );
      return order ? { topic: 'upgrade', payload: JSON.stringify(order) } : null;
    }
    const params = (
      typeof command.params === 'string' ? JSON.parse(command.params) : command.params
    ) as Record<string, number>;
    const payload = JSON.stringify({
      id: command.id,
      params,
      expiresAt: command.expiresAt.toISOString(),
    } satisfies ConfigSet);
    return { topic: 'config/set', payload };
  }

  async dispatch(gatewayId: number, online: boolean): Promise<void> {
    await this.dispatchMany([gatewayId], online);
  }

  /** Expires commands past their time; sends again what was sent and not answered. */
  async sweep(): Promise<void> {
    const { database } = this.options;
    const c = gatewayCommands;
    const expired = await database.db
      .update(c)
      .set({ state: 'expired', reason: 'expired', finishedAt: sql`now()` })
      .where(and(inArray(c.state, ['queued', 'sent']), lte(c.expiresAt, sql`now()`)))
      .returning({ id: c.id });
    await this.changed(expired.map((r) => r.id));
    const stale = await database.db
      .selectDistinct({ gatewayId: c.gatewayId })
      .from(c)
      .where(
        and(
          eq(c.state, 'sent'),
          lt(c.sentAt, sql`now() - make_interval(secs => ${this.resendAfterMs / 1000})`),
        ),
      );
    await this.dispatchMany(
      stale.map((r) => r.gatewayId),
      false,
    );
  }

  /**
   * A gateway's progress reports, one after another: the broker hands over a gateway's next
   * messages before the last ones are stored. Run side by side on PostgreSQL, "installing"
   * and "restarting" could commit in either order, and the change announced after the first
   * commit was read after the second (the console never showed "installing").
   */
  private inTurn<T>(networkId: string, work: () => Promise<T>): Promise<T> {
    const before = this.progressOf.get(networkId) ?? Promise.resolve();
    const mine = before.then(work);
    const last = mine.then(
      () => undefined,
      () => undefined,
    );
    this.progressOf.set(networkId, last);
    void last.then(() => {
      if (this.progressOf.get(networkId) === last) this.progressOf.delete(networkId);
    });
    return mine;
  }

  private async changed(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const commands = await readCommands(this.options.database.db, ids);
    void this.options.events.emit('commandsChanged', commands);
  }
}
