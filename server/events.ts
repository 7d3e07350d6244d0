import type { FastifyBaseLogger } from 'fastify';
import type { Command, GatewayReported } from '../src/contract/envcontrol';
import type { AlarmChange } from './alarms/lifecycle';
import type { HouseLiveState } from './houses/state';
import type { Reading } from './ingest/types';

/** Readings committed in one transaction, with the house states they left behind. */
export interface StoredBatch {
  readings: readonly Reading[];
  states: readonly HouseLiveState[];
}

/**
 * Everything one part of the server tells the others, by name. Each event has one way of
 * reaching its listeners (`DELIVERY`), chosen for what its sender must wait for.
 */
export interface ServerEventMap {
  /**
   * A reading passed validation and is about to be stored: only for what shows a reading the
   * moment it arrives (the monitor's full-rate stream). It may be a resend of one already
   * stored, and is stored a moment later (or resent by its gateway if the write fails).
   */
  readingAccepted: Reading;
  /** Readings committed, in commit order. */
  batchStored: StoredBatch;
  /** Gateways went online or offline (status topic, will, offline sweep). */
  gatewayStatus: readonly HouseLiveState[];
  /**
   * Houses whose state changed other than by a reading or by going online or offline: their
   * alarm summary, their gateway's firmware version. Not online news: a house whose gateway
   * never reported is not "offline", so the alarm engine does not listen to this one.
   */
  houseSummary: readonly HouseLiveState[];
  /** Alarms raised, acknowledged or cleared, after their transaction committed. */
  alarmsChanged: readonly AlarmChange[];
  /** A house's alarm limits changed (its id), or the alarm inputs of any house (null). */
  alarmRulesChanged: number | null;
  /** A session ended (logout): its sockets close. The session's token hash. */
  sessionEnded: string;
  /** A user's other sessions ended (password change): their sockets close. */
  otherSessionsEnded: { userId: number; keepTokenHash: string };
  /** Gateway commands changed state (queued, sent, applied …), after their write committed. */
  commandsChanged: readonly Command[];
  /** Gateways' own reports changed their stored parameters or version, after the commit. */
  gatewayReported: readonly GatewayReported[];
  /** New commands were stored for these gateways (ids): the dispatcher sends them if online. */
  commandsQueued: readonly number[];
  /**
   * A gateway subscribed to its command topics, or came back to a session the broker kept
   * subscribed (embedded broker), its id: it listens now, so what waits for it can go. Its
   * status may have said "online" before it subscribed, or say nothing yet.
   */
  gatewayListening: number;
  /**
   * A gateway's token was rotated, or the gateway changed or was deleted: its network id. The
   * sender waits for the listeners, so every process has been told before its answer goes.
   */
  gatewayRevoked: string;
  /** Who may see what changed (users, houses, farms): sockets are re-scoped; null is anyone. */
  scopesChanged: { userIds: readonly number[] } | null;
  /** Silences were made or ended early, after their write committed: the places they cover. */
  silencesChanged: readonly SilencePlace[];
}

/** A farm (house null: all its houses) or one house a silence covers. */
export interface SilencePlace {
  farmId: number;
  houseId: number | null;
}

export type ServerEventName = keyof ServerEventMap;
export type ServerEventListener<K extends ServerEventName> = (
  payload: ServerEventMap[K],
) => void | Promise<void>;

/**
 * - `now`: every listener is called before `emit` returns; `emit` does not wait for what a
 *   listener starts. For what happens at the rate of readings, or must not hold up its sender.
 * - `inTurn`: listeners are called one after another, each awaited; `emit` resolves when the
 *   last is done. A gateway's status message is acknowledged only after the alarm engine has
 *   handled it, so an acknowledged "offline" is never lost to a crash.
 * - `queued`: each listener gets the batches in order, one call at a time, never awaited by the
 *   writer; batches stored while a listener is busy are merged into its next call, so a slow
 *   listener (the alarm engine, one transaction per call) does less work the busier ingestion
 *   gets instead of falling further behind. `emit` waits only while a listener is more than
 *   `MAX_LISTENER_BACKLOG` readings behind.
 */
type Delivery = 'now' | 'inTurn' | 'queued';

const DELIVERY: { readonly [K in ServerEventName]: Delivery } = {
  readingAccepted: 'now',
  batchStored: 'queued',
  gatewayStatus: 'inTurn',
  houseSummary: 'inTurn',
  alarmsChanged: 'now',
  alarmRulesChanged: 'now',
  sessionEnded: 'now',
  otherSessionsEnded: 'now',
  commandsChanged: 'now',
  gatewayReported: 'now',
  commandsQueued: 'now',
  gatewayListening: 'now',
  gatewayRevoked: 'inTurn',
  scopesChanged: 'inTurn',
  silencesChanged: 'now',
};

/**
 * Readings a queued listener (the alarm engine) may have waiting before the writer waits for
 * it: writes never wait for alarm evaluation, yet its backlog stays bounded.
 */
const MAX_LISTENER_BACKLOG = 5_000;

const DONE = Promise.resolve();

/**
 * The server's one event bus, made where the process is wired (`roost.ts`) and handed to each
 * part that speaks or listens. Senders do not know who listens, listeners subscribe by name,
 * and no event comes back to its sender: an alarm summary goes out as `houseSummary`, which
 * the alarm engine does not hear. A listener's failure is logged and never reaches the sender:
 * storage is never undone or blocked by alarms or the live hub.
 */
export class ServerEvents {
  private readonly listeners: { [K in ServerEventName]?: Array<ServerEventListener<K>> } = {};
  private readonly queues: BatchQueue[] = [];

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Subscribes; the answer unsubscribes. Listeners are called in the order they subscribed. */
  on<K extends ServerEventName>(name: K, listener: ServerEventListener<K>): () => void {
    if (DELIVERY[name] === 'queued') {
      const queue = new BatchQueue(listener as ServerEventListener<'batchStored'>, this.log);
      this.queues.push(queue);
      const wrapped = ((batch: StoredBatch) => queue.push(batch)) as ServerEventListener<K>;
      this.listenersOf(name).push(wrapped);
      return () => this.remove(name, wrapped);
    }
    this.listenersOf(name).push(listener);
    return () => this.remove(name, listener);
  }

  emit<K extends ServerEventName>(name: K, payload: ServerEventMap[K]): Promise<void> {
    const listeners = this.listeners[name] as Array<ServerEventListener<K>> | undefined;
    if (!listeners || listeners.length === 0) return DONE;
    switch (DELIVERY[name]) {
      case 'now':
        for (const listener of listeners) this.callNow(name, listener, payload);
        return DONE;
      case 'inTurn':
        return this.callInTurn(name, listeners, payload);
      case 'queued':
        for (const listener of listeners) this.callNow(name, listener, payload);
        return this.backlogBounded();
    }
  }

  /** Resolves when every queued listener has handled everything given to it so far. */
  async idle(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.idle()));
  }

  private listenersOf<K extends ServerEventName>(name: K): Array<ServerEventListener<K>> {
    return (this.listeners[name] ??= []) as Array<ServerEventListener<K>>;
  }

  private remove<K extends ServerEventName>(name: K, listener: ServerEventListener<K>): void {
    const list = this.listenersOf(name);
    const at = list.indexOf(listener);
    if (at >= 0) list.splice(at, 1);
  }

  private callNow<K extends ServerEventName>(
    name: K,
    listener: ServerEventListener<K>,
    payload: ServerEventMap[K],
  ): void {
    try {
      const result = listener(payload);
      if (result instanceof Promise) result.catch((error: unknown) => this.failed(name, error));
    } catch (error) {
      this.failed(name, error);
    }
  }

  private async callInTurn<K extends ServerEventName>(
    name: K,
    listeners: ReadonlyArray<ServerEventListener<K>>,
    payload: ServerEventMap[K],
  ): Promise<void> {
    // A copy: a listener that subscribes or leaves meanwhile does not shift the others.
    for (const listener of [...listeners]) {
      try {
        await listener(payload);
      } catch (error) {
        this.failed(name, error);
      }
    }
  }

  private async backlogBounded(): Promise<void> {
    for (const queue of this.queues) if (queue.backlog > MAX_LISTENER_BACKLOG) await queue.idle();
  }

  private failed(name: ServerEventName, error: unknown): void {
    this.log.error({ err: error, event: name }, 'event listener failed');
  }
}

/** Stored batches on their way to one listener (see `queued` above). */
class BatchQueue {
  private queued: { readings: Reading[]; states: Map<number, HouseLiveState> } | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly listener: ServerEventListener<'batchStored'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Readings waiting for the listener. */
  get backlog(): number {
    return this.queued?.readings.length ?? 0;
  }

  push(batch: StoredBatch): void {
    this.queued ??= { readings: [], states: new Map() };
    for (const r of batch.readings) this.queued.readings.push(r);
    // The newest state of a house supersedes the ones before it.
    for (const s of batch.states) this.queued.states.set(s.houseId, s);
    // A listener that is free is called at once, before this returns (the live hub sends now).
    this.running ??= this.run();
  }

  idle(): Promise<void> {
    return this.running ?? DONE;
  }

  private async run(): Promise<void> {
    while (this.queued) {
      const { readings, states } = this.queued;
      this.queued = null;
      try {
        await this.listener({ readings, states: [...states.values()] });
      } catch (error) {
        this.log.error({ err: error, event: 'batchStored' }, 'event listener failed');
      }
    }
    this.running = null;
  }
}
