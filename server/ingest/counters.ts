import { REJECT_REASONS, type RejectReason } from './decode';

/** What ingestion has done since start: shown to administrators and in the benchmarks. */
export class IngestCounters {
  stored = 0;
  duplicates = 0;
  statusMessages = 0;
  readonly rejected: Record<RejectReason, number> = Object.fromEntries(
    REJECT_REASONS.map((r) => [r, 0]),
  ) as Record<RejectReason, number>;

  reject(reason: RejectReason): void {
    this.rejected[reason] += 1;
  }

  snapshot() {
    return {
      stored: this.stored,
      duplicates: this.duplicates,
      statusMessages: this.statusMessages,
      rejected: { ...this.rejected },
    };
  }
}
