import { ThrottledLog } from '../throttledLog';
import { databaseAway } from '../http/errors';
import type { FastifyBaseLogger } from 'fastify';
import { gatewayStatusSchema } from '../../src/contract/gateway';
import type { Database } from '../db/client';
import type { ServerEvents } from '../events';
import type { HouseLiveState } from '../houses/state';
import { IngestCounters } from './counters';
import { decodeTelemetry, type RejectReason } from './decode';
import type { ExtraRanges, GatewayDirectory, GatewayInfo } from './gatewayDirectory';
import { applyStatus } from './status';
import type { Reading } from './types';
import { storeBatch, type WriteResult } from './writer';

/**
 * At most this many readings per transaction. The database runs in its own thread (PGlite) or
 * process, so a big batch no longer blocks the event loop; what a batch costs per house (its
 * hour and its state, ~0.6 ms each inside PGlite) is paid once per batch, so under load a
 * bigger batch stores more readings a second: 500 → 2,000 measured 4,000 → 5,000 rows/s.
 * An idle server still writes each reading at once (a batch is what arrived meanwhile).
 */
const MAX_BATCH = 2_000;
/** Batches under way at once: one being written, the next waiting for its locks. */
const MAX_IN_FLIGHT = 2;
/**
 * A batch failed because the database was out of reach is written again, a second apart, for
 * this long before its readings are failed (not acknowledged: their gateways send them again).
 * Through an outage shorter than this the gateways keep their connections and every reading is
 * acknowledged once stored. Any other failure (a full disk, a refused value) fails at once, as
 * retrying would only hold ingest and the HTTP answer (503, retry later) back.
 */
const RETRY_FOR_MS = 60_000;
const RETRY_PAUSE_MS = 1_000;

/** A batch on its way to the database (IngestPipeline.pump). */
interface Writing {
  batch: Pending[];
  outcome: Promise<{ ok: true; result: WriteResult } | { ok: false; error: Error }>;
}
/** Rejections are logged at most this often per second; the counters keep the full count. */
const REJECT_LOGS_PER_SECOND = 10;

export type SubmitResult =
  | { status: 'stored' }
  | { status: 'duplicate' }
  /** An offline status heard while this process stops: its own doing, so not written. */
  | { status: 'ignored' }
  | { status: 'rejected'; reason: RejectReason; detail: string };

interface Pending {
  reading: Reading;
  resolve: (result: SubmitResult) => void;
  reject: (error: Error) => void;
}

/**
 * The one path every reading takes, from MQTT or HTTP: decode → validate → `readingAccepted`
 * (the monitor's live stream) → batch → store idempotently → `batchStored` (alarms, live hub).
 * `submitTelemetry` resolves only once the reading is committed, so the MQTT acknowledgement
 * can wait for it; it throws when the database fails, and then nothing is acknowledged.
 */
export class IngestPipeline {
  readonly counters = new IngestCounters();
  private eventHandler: ((networkId: string, payload: Buffer) => Promise<unknown>) | null = null;
  private queue: Pending[] = [];
  /** Batches on their way to the database, oldest first. */
  private inFlight: Writing[] = [];
  /** Settles the batches in the order they were taken. */
  private settled: Promise<void> = Promise.resolve();
  private scheduled = false;
  private logBudget = { second: 0, used: 0 };
  private isStopping = false;
  /**
   * When this process last began to hear gateways (monotonic ms), null while it cannot: the
   * offline sweep counts a gateway's silence only from then.
   */
  private hearingSince: number | null = performance.now();
  /**
   * Since when batches are stored again (monotonic ms), null while the database fails them:
   * readings held through an outage are not silence, so the sweep counts none of it either.
   */
  private storingSince: number | null = performance.now();

  constructor(
    private readonly database: Database,
    readonly directory: GatewayDirectory,
    private readonly events: ServerEvents,
    readonly log: FastifyBaseLogger,
  ) {
    this.failures = new ThrottledLog(log);
  }

  private readonly failures: ThrottledLog;

  /** Who handles the gateways' event topic (controller alarms, DI inputs): the alarm engine. */
  handleEvents(handler: (networkId: string, payload: Buffer) => Promise<unknown>): void {
    this.eventHandler = handler;
  }

  /**
   * A gateway event, resolved once handled, so the MQTT acknowledgement can wait for it like a
   * reading's does; a failure throws and nothing is acknowledged.
   */
  async submitEvent(networkId: string, payload: Buffer): Promise<void> {
    // The handler answers false for an event it refused (and logged): count it like a reading.
    if ((await this.eventHandler?.(networkId, payload)) === false) this.counters.reject('schema');
  }

  /**
   * A reading, resolved once it is committed. Not `async`: an async function answering a promise
   * costs another promise and a job to adopt it, per reading (measured with the bench's payload:
   * about 300 bytes of garbage a reading). Only an unknown gateway or a house's first reading
   * since the start waits for a read (`submitAfterLookUp`).
   */
  submitTelemetry(networkId: string, payload: unknown, known?: GatewayInfo): Promise<SubmitResult> {
    const now = Date.now();
    if (!known) return this.submitAfterLookUp(networkId, payload, now);
    const houseId = known.houseId;
    // A Map look-up per reading.
    const extras = houseId === null ? null : this.directory.extrasFor(houseId, now);
    if (extras instanceof Promise) return this.submitAfterLookUp(networkId, payload, now, known);
    try {
      return this.accept(networkId, payload, known, now, extras);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private async submitAfterLookUp(
    networkId: string,
    payload: unknown,
    now: number,
    known?: GatewayInfo,
  ): Promise<SubmitResult> {
    const gateway = known ?? (await this.directory.find(networkId));
    const extras =
      gateway?.houseId == null ? null : await this.directory.extrasFor(gateway.houseId, now);
    return this.accept(networkId, payload, gateway, now, extras);
  }

  /** Decodes, checks and queues a reading of a gateway looked up already. */
  private accept(
    networkId: string,
    payload: unknown,
    gateway: GatewayInfo | null,
    now: number,
    extras: ExtraRanges | null,
  ): Promise<SubmitResult> {
    if (!gateway || gateway.houseId === null || gateway.farmId === null) {
      return Promise.resolve(
        this.rejected(
          networkId,
          'unknownGateway',
          gateway ? 'not assigned to a house' : 'no such network id',
        ),
      );
    }
    const decoded = decodeTelemetry(payload, now, extras);
    if (!decoded.ok)
      return Promise.resolve(this.rejected(networkId, decoded.reason, decoded.detail));
    const d = decoded.reading;
    // Property by property: a spread of the decoded reading cost ~2 KB of garbage a reading
    // (the copy took V8's slow path), more than the reading itself.
    const reading: Reading = {
      ts: d.ts,
      seq: d.seq,
      mode: d.mode,
      metrics: d.metrics,
      faults: d.faults,
      devices: d.devices,
      extraKeys: d.extraKeys,
      gatewayId: gateway.gatewayId,
      houseId: gateway.houseId,
      farmId: gateway.farmId,
      networkId,
      receivedAt: new Date(now),
    };
    this.counters.accepted += 1;
    void this.events.emit('readingAccepted', reading);
    return new Promise<SubmitResult>((resolve, reject) => {
      this.queue.push({ reading, resolve, reject });
      if (this.queue.length >= MAX_BATCH) this.pump();
      else this.schedule();
    });
  }

  /** The retained status topic and the will: online/offline, wired/wireless, version. */
  async submitStatus(networkId: string, payload: Buffer | string): Promise<SubmitResult> {
    const gateway = await this.directory.find(networkId);
    if (!gateway || gateway.houseId === null || gateway.farmId === null) {
      return this.rejected(
        networkId,
        'unknownGateway',
        'status of an unknown or unassigned gateway',
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(payload.toString());
    } catch {
      return this.rejected(networkId, 'malformed', 'status is not JSON');
    }
    const parsed = gatewayStatusSchema.safeParse(json);
    if (!parsed.success)
      return this.rejected(
        networkId,
        'schema',
        `status: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    // Once this process stops, the gateways' connections close because of it: its broker ends
    // them (each will fires) and its own simulator says goodbye. None of that is a gateway
    // going offline; writing it raised an alarm per house on every routine restart. A
    // gateway that really stays away is found by the offline sweep after the next start.
    if (this.isStopping && !parsed.data.online) return { status: 'ignored' };
    const states = await applyStatus(
      this.database,
      { ...gateway, houseId: gateway.houseId, farmId: gateway.farmId },
      parsed.data,
    );
    this.counters.statusMessages += 1;
    await this.announceStatus(states);
    return { status: 'stored' };
  }

  /** The process begins to stop: offline statuses from now on are its own doing (above). */
  stopping(): void {
    this.isStopping = true;
  }

  /** The broker link (an external broker) is up again, or lost: see `hearingForSeconds`. */
  linkChanged(up: boolean): void {
    if (!up) this.hearingSince = null;
    else this.hearingSince ??= performance.now();
  }

  /** How long this process has heard gateways without a break; 0 while it cannot. */
  hearingForSeconds(): number {
    if (this.hearingSince === null || this.storingSince === null) return 0;
    return (performance.now() - Math.max(this.hearingSince, this.storingSince)) / 1000;
  }

  /** Gateway status changes found elsewhere too (the offline sweep). */
  async announceStatus(states: readonly HouseLiveState[]): Promise<void> {
    if (states.length > 0) await this.events.emit('gatewayStatus', states);
  }

  /** Readings waiting for the next batch (not the one being written): for the metrics. */
  queueDepth(): number {
    return this.queue.length;
  }

  /** Resolves when everything submitted so far is stored (or failed): for a clean shutdown. */
  async drain(): Promise<void> {
    while (this.inFlight.length > 0 || this.queue.length > 0) {
      this.pump();
      await this.settled;
    }
    await this.events.idle();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate lets every message already read from the sockets join this batch.
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /**
   * Starts the next batches: one whenever none is under way, and, while some are, each full one
   * the moment it is full, up to MAX_IN_FLIGHT. The database takes the next batch the moment it
   * is done with one instead of waiting for this thread to settle the first and build the next
   * (the embedded database sat idle a third of the time). Batches are settled and announced in
   * the order taken.
   */
  private pump(): void {
    while (
      this.queue.length > 0 &&
      this.inFlight.length < MAX_IN_FLIGHT &&
      (this.inFlight.length === 0 || this.queue.length >= MAX_BATCH)
    ) {
      const writing = this.write(this.queue.splice(0, MAX_BATCH));
      this.inFlight.push(writing);
      this.settled = this.settled
        .then(() => this.settle(writing))
        .catch((error: unknown) =>
          this.failures.error('settle', { err: error }, 'announcing a stored batch failed'),
        )
        .finally(() => {
          this.inFlight.shift();
          this.pump();
        });
    }
  }

  /** Starts writing a batch; its outcome is kept for `settle`, never thrown. */
  private write(batch: Pending[]): Writing {
    const startedAt = performance.now();
    // One statement or one transaction: the raw rows and what they add, together or not at all.
    const outcome = storeBatch(
      this.database,
      batch.map((p) => p.reading),
    ).then(
      (result) => {
        this.counters.batchWritten(batch.length, startedAt, true);
        return { ok: true as const, result };
      },
      (error: unknown) => {
        this.counters.batchWritten(batch.length, startedAt, false);
        return { ok: false as const, error: error as Error };
      },
    );
    return { batch, outcome };
  }

  /** Acknowledges (or fails) a written batch's readings and announces what it stored. */
  private async settle({ batch, outcome }: Writing): Promise<void> {
    let done = await outcome;
    const retryUntil = performance.now() + RETRY_FOR_MS;
    while (
      !done.ok &&
      databaseAway(done.error) &&
      !this.isStopping &&
      performance.now() < retryUntil
    ) {
      this.storingSince = null;
      this.failures.error(
        'retry',
        { err: done.error, readings: batch.length },
        'storing telemetry failed: trying again, nothing acknowledged meanwhile',
      );
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      // A write that committed but whose answer was lost comes back as duplicates: stored once.
      done = await this.write(batch).outcome;
    }
    if (!done.ok) {
      this.storingSince = null;
      this.failures.error(
        'store',
        { err: done.error, readings: batch.length },
        'storing telemetry failed: nothing acknowledged',
      );
      for (const p of batch) p.reject(done.error);
      return;
    }
    this.storingSince ??= performance.now();
    const result = done.result;
    this.counters.stored += result.inserted.length;
    this.counters.duplicates += result.duplicates;
    const inserted = new Set(result.inserted);
    for (const p of batch) p.resolve({ status: inserted.has(p.reading) ? 'stored' : 'duplicate' });
    // The live hub sends the batch at once while the alarm engine may still be on earlier
    // batches, and the next write starts (the bus's `queued` delivery).
    if (result.inserted.length > 0)
      await this.events.emit('batchStored', { readings: result.inserted, states: result.states });
  }

  /**
   * Every refusal, whatever refused it (the decoder, the broker's sign-in or topic check, the
   * HTTP ingest's token check): counted by reason, and logged at most 10 times a second.
   */
  rejected(networkId: string, reason: RejectReason, detail: string): SubmitResult {
    this.counters.reject(reason);
    const second = Math.floor(Date.now() / 1000);
    if (this.logBudget.second !== second) this.logBudget = { second, used: 0 };
    if (this.logBudget.used < REJECT_LOGS_PER_SECOND) {
      this.logBudget.used += 1;
      this.log.warn({ networkId, reason, detail }, 'gateway message rejected');
    }
    return { status: 'rejected', reason, detail };
  }
}
