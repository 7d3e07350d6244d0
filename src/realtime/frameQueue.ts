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

export interface FrameQueueOptions<T> {
  /** Called when the cap dropped items: the owner fetches a fresh snapshot. */
  onOverflow?: () => void;
  frames?: FrameScheduler;
  /** The most weight that may wait (MAX_QUEUED_ITEMS). */
  maxItems?: number;
  /** How many items one counts as (a batch of packed statuses: its houses). */
  weigh?: (item: T) => number;
  /**
   * The most weight one frame takes (at least one item); the rest waits for the next frame.
   * Unbounded by default.
   */
  perFrame?: number;
}

/**
 * A plain (non-observable) queue flushed once per animation frame: socket handlers only push,
 * and `flush` receives what arrived since the last frame in one call, which the owner applies
 * in one MobX action; with `perFrame`, a backlog (a tab that got no frame for seconds) is taken
 * over several frames rather than in one long task.
 */
export class FrameQueue<T> {
  private items: T[] = [];
  /** The items' total weight. */
  private weight = 0;
  private frame: number | null = null;
  private readonly onOverflow: () => void;
  private readonly frames: FrameScheduler;
  private readonly maxItems: number;
  private readonly weigh: (item: T) => number;
  private readonly perFrame: number;

  constructor(
    private readonly flush: (items: T[]) => void,
    options: FrameQueueOptions<T> = {},
  ) {
    this.onOverflow = options.onOverflow ?? (() => undefined);
    this.frames = options.frames ?? animationFrames;
    this.maxItems = options.maxItems ?? MAX_QUEUED_ITEMS;
    this.weigh = options.weigh ?? (() => 1);
    this.perFrame = options.perFrame ?? Number.POSITIVE_INFINITY;
  }

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
    if (this.weight <= this.perFrame) {
      const batch = this.items;
      this.items = [];
      this.weight = 0;
      this.flush(batch);
      return;
    }
    let taken = 1;
    let weight = this.weigh(this.items[0]!);
    while (taken < this.items.length && weight + this.weigh(this.items[taken]!) <= this.perFrame)
      weight += this.weigh(this.items[taken++]!);
    const batch = this.items.slice(0, taken);
    this.items = this.items.slice(taken);
    this.weight -= weight;
    this.frame = this.frames.request(() => this.run());
    this.flush(batch);
  }
}
