import type { FastifyBaseLogger } from 'fastify';
import type { HouseLiveState, IngestListener, Reading } from './types';

/**
 * Stored batches on their way to one listener: in order, one call at a time, and never
 * awaited by the writes. Batches stored while the listener is still busy are merged into its
 * next call, so a slow listener (the alarm engine, one transaction per call) does less work
 * the busier ingestion gets instead of falling further behind.
 */
export class StoredDelivery {
  private queued: { readings: Reading[]; states: Map<number, HouseLiveState> } | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly listener: IngestListener,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Readings waiting for the listener: the writer holds back when there are too many. */
  get backlog(): number {
    return this.queued?.readings.length ?? 0;
  }

  push(readings: readonly Reading[], states: readonly HouseLiveState[]): void {
    this.queued ??= { readings: [], states: new Map() };
    for (const r of readings) this.queued.readings.push(r);
    // The newest state of a house supersedes the ones before it.
    for (const s of states) this.queued.states.set(s.houseId, s);
    // A listener that is free is called at once, before this returns (the live hub sends now).
    this.running ??= this.run();
  }

  /** Resolves when everything pushed so far has been handed over. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async run(): Promise<void> {
    while (this.queued) {
      const { readings, states } = this.queued;
      this.queued = null;
      try {
        await this.listener.onStored?.(readings, [...states.values()]);
      } catch (error) {
        // A listener's failure (alarms, live) must never undo or block storage.
        this.log.error({ err: error }, 'ingest listener failed');
      }
    }
    this.running = null;
  }
}
