import type { IngestStats } from '../../src/contract/ingest';
import { REJECT_REASONS, type RejectReason } from './decode';

/** What ingestion has done since start: shown to administrators and in the benchmarks. */
export class IngestCounters {
  /** Readings that passed the checks (stored, or about to be, or found to be resends). */
  accepted = 0;
  stored = 0;
  duplicates = 0;
  statusMessages = 0;
  readonly rejected: Record<RejectReason, number> = Object.fromEntries(
    REJECT_REASONS.map((r) => [r, 0]),
  ) as Record<RejectReason, number>;

  /**
   * Hears every batch write: its readings, its seconds, whether it committed. The metrics
   * (server/ops) put it in their histograms; nothing else is kept here.
   */
  onBatch: ((size: number, seconds: number, committed: boolean) => void) | null = null;

  reject(reason: RejectReason): void {
    this.rejected[reason] += 1;
  }

  batchWritten(size: number, startedAt: number, committed: boolean): void {
    this.onBatch?.(size, (performance.now() - startedAt) / 1000, committed);
  }

  snapshot() {
    return {
      accepted: this.accepted,
      stored: this.stored,
      duplicates: this.duplicates,
      statusMessages: this.statusMessages,
      rejected: { ...this.rejected },
    } satisfies IngestStats;
  }
}
