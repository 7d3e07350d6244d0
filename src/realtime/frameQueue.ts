/** The browser's frame scheduler, injectable so tests can step frames by hand. */
export interface FrameScheduler {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

export const animationFrames: FrameScheduler = {
  request: (callback) => requestAnimationFrame(() => callback()),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/**
 * At most this many items wait for the next frame (an item may count as several: see `weigh`).
 * A background tab gets about one frame a second or none; at 4 batches a second of up to 5,000 deltas the queue would grow without end,
 * so past the cap it drops its oldest 20 % (every buffer is bounded). Dropped deltas are not
 * lost data: the houses they touched may be briefly behind, and the queue reports the drop so
 * the owner fetches a fresh snapshot.
 */
export const MAX_QUEUED_ITEMS = 50_000;
const KEEP_FRACTION = 0.8;

/**
 * A plain (non-observable) queue flushed once per animation frame: socket handlers only push,
 * and `flush` receives everything that arrived since the last frame in one call, which the
 * owner applies in one MobX action.
 */
export class FrameQueue<T> {
  private items: T[] = [];
  /** The items' total weight. */
  private weight = 0;
  private frame: number | null = null;

  constructor(
    private readonly flush: (items: T[]) => void,
    private readonly onOverflow: () => void = () => undefined,
    private readonly frames: FrameScheduler = animationFrames,
    private readonly maxItems = MAX_QUEUED_ITEMS,
    /** How many items one counts as (a batch of packed statuses: its houses). */
    private readonly weigh: (item: T) => number = () => 1,
  ) {}

  /** The items' total weight (their number when each weighs 1). */
  get size(): number {
    return this.weight;
  }

  push(...items: T[]): void {
    for (const item of items) {
      this.items.push(item);
      this.weight += this.weigh(item);
    }
    if (this.weight > this.maxItems) {
      const keep = Math.floor(this.maxItems * KEEP_FRACTION);
      let from = 0;
      while (from < this.items.length && this.weight > keep)
        this.weight -= this.weigh(this.items[from++]!);
      this.items = this.items.slice(from);
      this.onOverflow();
    }
    // One frame request at a time: a second push before the frame joins the same flush.
    this.frame ??= this.frames.request(() => this.run());
  }

  /** Drops what waits (a new snapshot supersedes it). */
  clear(): void {
    this.items = [];
    this.weight = 0;
    if (this.frame !== null) this.frames.cancel(this.frame);
    this.frame = null;
  }

  private run(): void {
    this.frame = null;
    if (this.items.length === 0) return;
    const batch = this.items;
    this.items = [];
    this.weight = 0;
    this.flush(batch);
  }
}
