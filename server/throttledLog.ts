import type { FastifyBaseLogger } from 'fastify';

/**
 * One error log line per kind every `everyMs`, with the number left out since: while a disk is
 * full or the database is away every request and every batch fails the same way, and a line
 * (with its stack) for each would flood the log, and the disk it may share, with one fact.
 */
export class ThrottledLog {
  private readonly last = new Map<string, { at: number; skipped: number }>();

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly everyMs = 10_000,
  ) {}

  error(kind: string, fields: Record<string, unknown>, msg: string, now = Date.now()): void {
    const seen = this.last.get(kind);
    if (seen && now - seen.at < this.everyMs) {
      seen.skipped += 1;
      return;
    }
    this.last.set(kind, { at: now, skipped: 0 });
    this.log.error(seen?.skipped ? { ...fields, sameSinceLastLine: seen.skipped } : fields, msg);
  }
}
