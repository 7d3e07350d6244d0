import { sameJson, type HouseDelta, type HouseLive, type HouseStatusBatch } from '../contract/live';

/**
 * Which houses changed since a consumer last asked: for a screen that keeps its own aggregates
 * of every house (the wall's per-farm states at 10,000 farms) and so must not read every house
 * on every live batch. Ids, not houses: a house that left the store is simply not found.
 */
export interface HouseChanges {
  /**
   * What changed since the last call, in the order it happened: runs of houses changed, added
   * or removed (each once per run), and between them the packed statuses the store heard.
   */
  take(): TakenChanges[];
  /** Stops recording (the store forgets this tracker). */
  dispose(): void;
}

/**
 * `lives[i]` is the live part the last change of house `ids[i]` left, or null when the house was
 * added, removed or re-read since (its other fields may have changed too: look it up). With the
 * live part at hand, a consumer of thousands of changes a second need not look each house up
 * again (the wall: LiveTally).
 */
export interface TakenLives {
  ids: number[];
  lives: (HouseLive | null)[];
}

/**
 * Packed statuses of houses the page hears in status only (`house:status`). The store's houses
 * do not take them in (see HousesStore.applyStatuses): a consumer that counts states from the
 * houses' live parts must count these on top, in order.
 */
export interface TakenStatuses {
  statuses: HouseStatusBatch;
}

export type TakenChanges = TakenLives | TakenStatuses;

/**
 * Whether a change of a house's live part matters to a tracker's consumer. The store replaces
 * only the fields that changed (`withDelta`), so comparing a field's references is enough.
 */
export type LiveChangeFilter = (before: HouseLive, after: HouseLive) => boolean;

/** The store's side of a tracker: it records changes until its consumer takes them. */
export class ChangeTracker implements HouseChanges {
  /** What was recorded, in order: runs of changed houses (see `run`) and status batches. */
  private recorded: (Map<number, HouseLive | null> | HouseStatusBatch)[] = [];
  /**
   * The run being recorded: each changed house's live part, or null: look the house up (see
   * TakenLives). A status batch ends it, so that what came after a batch is applied after it.
   */
  private run: Map<number, HouseLive | null> | null = null;

  constructor(
    initial: Iterable<number>,
    /** Whether a change of the live part counts; a house added, removed or re-read always does. */
    private readonly counts: LiveChangeFilter,
    private readonly onDispose: (tracker: ChangeTracker) => void,
  ) {
    this.mark(initial);
  }

  mark(ids: Iterable<number>): void {
    const run = this.openRun();
    for (const id of ids) run.set(id, null);
  }

  /** Records the house when the change counts for this tracker; true when recorded. */
  noteLive(houseId: number, before: HouseLive, after: HouseLive): boolean {
    if (!this.counts(before, after)) return false;
    const run = this.openRun();
    // A house marked to be looked up stays so: more than its live part may have changed.
    if (run.get(houseId) !== null) run.set(houseId, after);
    return true;
  }

  /** Records a batch of packed statuses as it is (no entry per house). */
  noteStatuses(batch: HouseStatusBatch): void {
    this.recorded.push(batch);
    this.run = null;
  }

  take(): TakenChanges[] {
    const taken: TakenChanges[] = [];
    for (const entry of this.recorded) {
      if (!(entry instanceof Map)) {
        taken.push({ statuses: entry });
        continue;
      }
      if (entry.size === 0) continue;
      const ids: number[] = [];
      const lives: (HouseLive | null)[] = [];
      for (const [id, live] of entry) {
        ids.push(id);
        lives.push(live);
      }
      taken.push({ ids, lives });
    }
    this.recorded = [];
    this.run = null;
    return taken;
  }

  dispose(): void {
    this.recorded = [];
    this.run = null;
    this.onDispose(this);
  }

  private openRun(): Map<number, HouseLive | null> {
    if (this.run) return this.run;
    const run = new Map<number, HouseLive | null>();
    this.recorded.push(run);
    this.run = run;
    return run;
  }
}

/**
 * `live` with the delta's fields, or `live` itself when the delta changes none of them. Field by
 * field rather than a loop over the delta's keys: this runs for every house every second on a
 * wall, and one shape for every live object keeps it fast. A field equal in value keeps its old
 * object, so observers of that field (and trackers) see no change.
 */
export function withDelta(live: HouseLive, d: HouseDelta): HouseLive {
  const online = d.online === undefined ? live.online : d.online;
  const network = d.network === undefined ? live.network : d.network;
  const gatewayVersion = d.gatewayVersion === undefined ? live.gatewayVersion : d.gatewayVersion;
  const onlineSince = d.onlineSince === undefined ? live.onlineSince : d.onlineSince;
  const lastSeenAt = d.lastSeenAt === undefined ? live.lastSeenAt : d.lastSeenAt;
  const lastTs = d.lastTs === undefined ? live.lastTs : d.lastTs;
  const mode = d.mode === undefined ? live.mode : d.mode;
  const metrics =
    d.metrics === undefined || sameJson(d.metrics, live.metrics) ? live.metrics : d.metrics;
  const faults = d.faults === undefined || sameJson(d.faults, live.faults) ? live.faults : d.faults;
  const devices =
    d.devices === undefined || sameJson(d.devices, live.devices) ? live.devices : d.devices;
  const alarm = d.alarm === undefined || sameJson(d.alarm, live.alarm) ? live.alarm : d.alarm;
  if (
    online === live.online &&
    network === live.network &&
    gatewayVersion === live.gatewayVersion &&
    onlineSince === live.onlineSince &&
    lastSeenAt === live.lastSeenAt &&
    lastTs === live.lastTs &&
    mode === live.mode &&
    metrics === live.metrics &&
    faults === live.faults &&
    devices === live.devices &&
    alarm === live.alarm
  )
    return live;
  return {
    houseId: live.houseId,
    online,
    network,
    gatewayVersion,
    onlineSince,
    lastSeenAt,
    lastTs,
    mode,
    metrics,
    faults,
    devices,
    alarm,
  };
}
