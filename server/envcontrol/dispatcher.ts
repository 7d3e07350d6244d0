import { and, asc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  gatewayTopic,
  type ConfigReport,
  type GatewayReplyTopic,
} from '../../src/contract/gateway';
import { recordDeviceLog } from './deviceLog';
import { recordProgress } from '../upgrade/commands';
import type { Database } from '../db/client';
import { gatewayCommands } from '../db/envcontrolSchema';
import { gateways } from '../db/schema';
import { houseState } from '../db/telemetrySchema';
import type { ServerEvents } from '../events';
import type { GatewayDirectory, GatewayInfo } from '../ingest/gatewayDirectory';
import { AckBatches } from './ackBatches';
import { readCommands } from './commandRows';
import { commandMessage, type OpenCommand } from './messages';
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
/**
 * Expiry, waiting commands and resends are checked this often: a command's expiry shows, and
 * a waiting command goes to a gateway found online, within a second or two.
 */
const SWEEP_INTERVAL_MS = 1_000;
/**
 * A queued command whose gateway has been online this long was missed by the paths that send
 * at once (queuing, a status, a subscription, a report): the sweep sends it. The grace leaves
 * those paths their turn, so the sweep, in this process or another, seldom sends a command
 * a second time in the moment between its first sending and its state turning "sent".
 */
const WAITING_GRACE_MS = 1_000;
/** How long `sending` remembers a command marked sent: far longer than any read takes. */
const SENDING_KEPT_MS = 60_000;

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
 * comes back, whenever the sweep finds one online with commands waiting, and again until
 * acknowledged), records acknowledgements and reports, and expires what waited too long.
 * Everything it knows is in the database, so a restarted server carries on where it stopped.
 */
export class CommandDispatcher {
  private publish: GatewayPublish | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private readonly resendAfterMs: number;
  private readonly acks: AckBatches;
  /** Per network id, the end of its last report's or progress report's handling (`inTurn`). */
  private readonly progressOf = new Map<string, Promise<void>>();
  /**
   * The commands this process is sending (Infinity) or marked sent (when, `performance.now()`),
   * for `dispatchMany`: the paths that send (queuing, status, subscription, sweep) often run
   * at the same moment for one gateway.
   */
  private readonly sending = new Map<string, number>();

  constructor(private readonly options: DispatcherOptions) {
    this.resendAfterMs = options.resendAfterMs ?? RESEND_AFTER_MS;
    this.acks = new AckBatches(options.database, (ids) => this.changed(ids));
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
    await this.acks.idle();
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
    if (reply.kind === 'config/ack') await this.acks.submit(gateway, reply.data);
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
    const { database } = this.options;
    const c = gatewayCommands;
    const startedAt = performance.now();
    for (const [id, at] of this.sending)
      if (at < startedAt - SENDING_KEPT_MS) this.sending.delete(id);
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
    // Being sent by another dispatch of this process, or marked sent after this read began (so
    // it may show them as they were): not sent a second time.
    const mine = open.filter((command) => (this.sending.get(command.id) ?? -Infinity) < startedAt);
    if (mine.length === 0) return;
    for (const command of mine) this.sending.set(command.id, Infinity);
    try {
      await this.send(mine, publish);
    } finally {
      const done = performance.now();
      for (const command of mine) this.sending.set(command.id, done);
    }
  }

  /** Publishes these commands, marks those published as sent, and announces the new ones. */
  private async send(open: readonly OpenCommand[], publish: GatewayPublish): Promise<void> {
    const { database, log } = this.options;
    const published = await Promise.all(
      open.map(async (command) => {
        try {
          const message = await commandMessage(
            database.db,
            command,
            this.options.downloadBase?.() ?? null,
          );
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

  async dispatch(gatewayId: number, online: boolean): Promise<void> {
    await this.dispatchMany([gatewayId], online);
  }

  /**
   * Expires commands past their time; sends what waits for a gateway that is online; sends
   * again what was sent and not answered.
   */
  async sweep(): Promise<void> {
    const { database } = this.options;
    const c = gatewayCommands;
    const expired = await database.db
      .update(c)
      .set({ state: 'expired', reason: 'expired', finishedAt: sql`now()` })
      .where(and(inArray(c.state, ['queued', 'sent']), lte(c.expiresAt, sql`now()`)))
      .returning({ id: c.id });
    await this.changed(expired.map((r) => r.id));
    // By the gateway's state, not by the news of it: a gateway is found online by paths that
    // announce nothing to the dispatcher (a reading after the queuing found it offline, a
    // status unchanged across a restart, another process's write). A command queued while
    // the console showed the gateway offline stayed queued while its readings came in.
    const waiting = await database.db
      .selectDistinct({ gatewayId: c.gatewayId })
      .from(c)
      .innerJoin(
        houseState,
        and(eq(houseState.gatewayId, c.gatewayId), eq(houseState.online, true)),
      )
      .where(
        and(
          eq(c.state, 'queued'),
          gt(c.expiresAt, sql`now()`),
          sql`greatest(${c.createdAt}, ${houseState.onlineSince}) < now() - make_interval(secs => ${WAITING_GRACE_MS / 1000})`,
        ),
      );
    await this.dispatchMany(
      waiting.map((r) => r.gatewayId),
      false,
      true,
    );
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
