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
 * At most this many items wait for the next frame. A background tab gets about one frame a
 * second or none; at 4 batches a second of up to 5,000 deltas the queue would grow without end,
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
  private frame: number | null = null;

  constructor(
    private readonly flush: (items: T[]) => void,
    private readonly onOverflow: () => void = () => undefined,
    private readonly frames: FrameScheduler = animationFrames,
    private readonly maxItems = MAX_QUEUED_ITEMS,
  ) {}

  get size(): number {
    return this.items.length;
  }

  push(...items: T[]): void {
    for (const item of items) this.items.push(item);
    if (this.items.length > this.maxItems) {
      this.items = this.items.slice(this.items.length - Math.floor(this.maxItems * KEEP_FRACTION));
      this.onOverflow();
    }
    // One frame request at a time: a second push before the frame joins the same flush.
    this.frame ??= this.frames.request(() => this.run());
  }

  /** Drops what waits (a new snapshot supersedes it). */
  clear(): void {
    this.items = [];
    if (this.frame !== null) this.frames.cancel(this.frame);
    this.frame = null;
  }

  private run(): void {
    this.frame = null;
    if (this.items.length === 0) return;
    const batch = this.items;
    this.items = [];
    this.flush(batch);
  }
}
