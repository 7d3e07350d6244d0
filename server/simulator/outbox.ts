/** One message waiting to be delivered, in the order it was made. */
export interface OutboxItem {
  topic: string;
  payload: string;
  /** Telemetry items count as readings in the simulator's figures. */
  reading: boolean;
  /** Position in the outbox since it was made: failed items go back to their place. */
  readonly position: number;
  state: 'pending' | 'inflight' | 'done';
}

/** Compact the array once this many delivered items sit at its front. */
const COMPACT_AFTER_ITEMS = 1024;

/**
 * A gateway's bounded, ordered outbox. Every message stays here until the broker acknowledges
 * it: a publish that fails for any reason (mqtt.js reports "Connection closed" for a publish
 * made while it resends after a reconnect, and never resends it: a known way to lose data) goes back to
 * pending and is sent again, in order, on the next connection. Delivery is at least once: a
 * message whose acknowledgement was lost is sent twice, and the server stores it once.
 */
export class Outbox {
  private items: OutboxItem[] = [];
  private head = 0;
  /** Absolute position of `items[0]`. */
  private base = 0;
  /** Lowest absolute position that may still be pending. */
  private cursor = 0;
  private made = 0;
  private readonly inflight = new Set<OutboxItem>();
  dropped = 0;
  droppedReadings = 0;
  /** Messages put back to be sent again after a failed publish or a lost connection. */
  requeued = 0;

  constructor(private readonly capacity: number) {}

  /** Messages not yet acknowledged, in flight or not. */
  get size(): number {
    return this.items.length - this.head;
  }

  get inflightCount(): number {
    return this.inflight.size;
  }

  /**
   * Adds a message; when full, the oldest is dropped: the newest readings matter most to a
   * live view, and a gateway's own flash buffer behaves the same way.
   */
  push(topic: string, payload: string, reading: boolean): void {
    if (this.size >= this.capacity) this.dropOldest();
    this.items.push({ topic, payload, reading, position: this.made, state: 'pending' });
    this.made += 1;
  }

  /** The next pending message, now in flight; none when `maxInflight` are already out. */
  take(maxInflight: number): OutboxItem | undefined {
    if (this.inflight.size >= maxInflight) return undefined;
    let index = Math.max(this.cursor - this.base, this.head);
    while (index < this.items.length) {
      const item = this.items[index]!;
      index += 1;
      if (item.state === 'pending') {
        item.state = 'inflight';
        this.inflight.add(item);
        this.cursor = this.base + index;
        return item;
      }
    }
    this.cursor = this.base + index;
    return undefined;
  }

  /** The broker has it. A late acknowledgement of an item already sent again also counts. */
  ack(item: OutboxItem): void {
    this.inflight.delete(item);
    item.state = 'done';
    this.trim();
  }

  /** Back to pending, to be sent again in its place. */
  fail(item: OutboxItem): void {
    if (item.state !== 'inflight') return;
    this.inflight.delete(item);
    item.state = 'pending';
    this.requeued += 1;
    this.cursor = Math.min(this.cursor, item.position);
  }

  /** The connection is gone: nothing in flight on it will be acknowledged. */
  failInflight(): void {
    for (const item of [...this.inflight]) this.fail(item);
  }

  /** Everything not yet acknowledged, oldest first (for tests and a final count). */
  pendingItems(): OutboxItem[] {
    return this.items.slice(this.head).filter((item) => item.state !== 'done');
  }

  private dropOldest(): void {
    const item = this.items[this.head];
    if (!item) return;
    this.inflight.delete(item);
    item.state = 'done';
    this.dropped += 1;
    if (item.reading) this.droppedReadings += 1;
    this.trim();
  }

  private trim(): void {
    while (this.head < this.items.length && this.items[this.head]!.state === 'done') {
      this.head += 1;
    }
    if (this.head >= COMPACT_AFTER_ITEMS && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.base += this.head;
      this.head = 0;
    }
    this.cursor = Math.max(this.cursor, this.base + this.head);
  }
}
