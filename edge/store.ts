import {
  closeSync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

/** One message kept until the broker has it. */
export interface StoredRecord {
  /** Position in the store, increasing for ever: the order of sending. */
  n: number;
  /** When it was made (ms): the age limit counts from here. */
  t: number;
  topic: string;
  payload: string;
  bytes: number;
}

export interface StoreLimits {
  maxBytes: number;
  maxAgeMs: number;
}

export interface StoreCounters {
  stored: number;
  sent: number;
  droppedForSize: number;
  droppedForAge: number;
}

/** A segment file holds about this much before the next one starts. */
const SEGMENT_BYTES = 1024 * 1024;

/**
 * A house's store-and-forward buffer on disk.
 *
 * Design: append-only segment files (`seg-<first n>.jsonl`), one JSON record a line, each
 * append followed by fdatasync before `append` returns, so a reading the edge has made
 * survives a SIGKILL or a power cut. What the broker has acknowledged is a single number, the
 * highest n below which everything is acknowledged, kept in `acked` (written to a temporary
 * file, fsynced, renamed: never half written). A segment whose records are all acknowledged is
 * deleted. At start the segments are read back and whatever lies above `acked` is sent again,
 * in order; a torn last line (killed mid-write) is skipped. Delivery is at least once: a
 * record acknowledged just before a kill may be sent twice, and Roost stores a reading once
 * (same gateway, same ts). Bounded: beyond `maxBytes` the oldest segment goes, beyond
 * `maxAgeMs` the oldest records go, each counted.
 */
export class DiskStore {
  private readonly pending: StoredRecord[] = [];
  private readonly segments: Array<{ first: number; file: string; last: number; bytes: number }> =
    [];
  private fd: number | null = null;
  private next = 1;
  private acked = 0;
  private ackedOutOfOrder = new Set<number>();
  private ackDirty = false;
  private ackTimer: NodeJS.Timeout | null = null;
  private head = 0;
  readonly counters: StoreCounters = { stored: 0, sent: 0, droppedForSize: 0, droppedForAge: 0 };

  constructor(
    readonly dir: string,
    private readonly limits: StoreLimits,
  ) {
    mkdirSync(dir, { recursive: true });
    this.load();
  }

  /** Records waiting (in flight or not). */
  get size(): number {
    return this.pending.length - this.head;
  }

  /** The position the next record will take. */
  get nextPosition(): number {
    return this.next;
  }

  get bytes(): number {
    return this.segments.reduce((sum, s) => sum + s.bytes, 0);
  }

  /** Keeps a message on disk (durably, before returning) until `ack`. */
  append(topic: string, payload: string, t = Date.now()): StoredRecord {
    const record: StoredRecord = { n: this.next, t, topic, payload, bytes: 0 };
    this.next += 1;
    const line = `${JSON.stringify({ n: record.n, t, topic, payload })}\n`;
    record.bytes = Buffer.byteLength(line);
    let segment = this.segments.at(-1);
    if (!segment || this.fd === null || segment.bytes >= SEGMENT_BYTES) {
      if (this.fd !== null) closeSync(this.fd);
      const file = path.join(this.dir, `seg-${String(record.n).padStart(12, '0')}.jsonl`);
      this.fd = openSync(file, 'a');
      segment = { first: record.n, file, last: record.n, bytes: 0 };
      this.segments.push(segment);
      this.syncDir();
    }
    writeSync(this.fd, line);
    fdatasyncSync(this.fd);
    segment.last = record.n;
    segment.bytes += record.bytes;
    this.pending.push(record);
    this.counters.stored += 1;
    this.enforceSize();
    return record;
  }

  /**
   * Up to `max` records to send next, oldest first, skipping those `inflight` holds; records
   * past the age limit are dropped (counted) on the way.
   */
  peek(max: number, inflight: ReadonlySet<number>): StoredRecord[] {
    const cutoff = Date.now() - this.limits.maxAgeMs;
    while (this.head < this.pending.length && this.pending[this.head]!.t < cutoff) {
      const old = this.pending[this.head]!;
      if (inflight.has(old.n)) break;
      this.counters.droppedForAge += 1;
      this.settle(old.n);
      this.head += 1;
    }
    const out: StoredRecord[] = [];
    for (let i = this.head; i < this.pending.length && out.length < max; i += 1) {
      const r = this.pending[i]!;
      if (!inflight.has(r.n) && !this.ackedOutOfOrder.has(r.n)) out.push(r);
    }
    return out;
  }

  /** The broker has record `n`. */
  ack(n: number): void {
    if (n <= this.acked) return;
    this.counters.sent += 1;
    this.settle(n);
    while (this.head < this.pending.length && this.pending[this.head]!.n <= this.acked)
      this.head += 1;
    if (this.head > 4096 && this.head * 2 > this.pending.length) {
      this.pending.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Writes the acknowledged position now (also done within 200 ms of an ack). */
  flush(): void {
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = null;
    if (!this.ackDirty) return;
    this.ackDirty = false;
    const file = path.join(this.dir, 'acked');
    mkdirSync(this.dir, { recursive: true });
    const fd = openSync(`${file}.tmp`, 'w');
    writeSync(fd, String(this.acked));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(`${file}.tmp`, file);
    while (this.segments.length > 1 && this.segments[0]!.last <= this.acked) {
      rmSync(this.segments.shift()!.file, { force: true });
    }
  }

  close(): void {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private settle(n: number): void {
    this.ackedOutOfOrder.add(n);
    this.advance();
  }

  /** Moves the acknowledged position over every settled record that follows it. */
  private advance(): void {
    while (this.ackedOutOfOrder.has(this.acked + 1)) {
      this.acked += 1;
      this.ackedOutOfOrder.delete(this.acked);
    }
    this.ackDirty = true;
    this.ackTimer ??= setTimeout(() => this.flush(), 200);
  }

  private enforceSize(): void {
    while (this.segments.length > 1 && this.bytes > this.limits.maxBytes) {
      const gone = this.segments.shift()!;
      rmSync(gone.file, { force: true });
      while (this.head < this.pending.length && this.pending[this.head]!.n <= gone.last) {
        if (this.pending[this.head]!.n > this.acked) this.counters.droppedForSize += 1;
        this.head += 1;
      }
      // Everything in the deleted segment is settled, sent or not.
      this.acked = Math.max(this.acked, gone.last);
      for (const k of this.ackedOutOfOrder) if (k <= this.acked) this.ackedOutOfOrder.delete(k);
      this.advance();
    }
  }

  private load(): void {
    try {
      this.acked = Number(readFileSync(path.join(this.dir, 'acked'), 'utf8')) || 0;
    } catch {
      this.acked = 0;
    }
    const files = readdirSync(this.dir)
      .filter((f) => /^seg-\d+\.jsonl$/.test(f))
      .sort();
    for (const name of files) {
      const file = path.join(this.dir, name);
      const text = readFileSync(file, 'utf8');
      const segment = {
        first: Number(name.slice(4, -6)),
        file,
        last: 0,
        bytes: statSync(file).size,
      };
      for (const line of text.split('\n')) {
        if (!line) continue;
        let r: { n: number; t: number; topic: string; payload: string };
        try {
          r = JSON.parse(line) as typeof r;
        } catch {
          continue; // the line a kill cut short: it was never acknowledged to anyone
        }
        segment.last = r.n;
        this.next = Math.max(this.next, r.n + 1);
        if (r.n > this.acked) this.pending.push({ ...r, bytes: Buffer.byteLength(line) + 1 });
      }
      this.segments.push(segment);
    }
    this.next = Math.max(this.next, this.acked + 1);
  }

  private syncDir(): void {
    const fd = openSync(this.dir, 'r');
    fsyncSync(fd);
    closeSync(fd);
  }
}
