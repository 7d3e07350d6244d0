import { type CurrentSilences } from '../stores/CurrentSilences';
import { runInAction } from 'mobx';
import { type ApiClient } from '../api/client';
import { fetchAlarmAmount } from '../api/endpoints';
import {
  STATUS_STRIDE,
  type AlarmEvent,
  type HouseDelta,
  type HouseReading,
  type HouseStatusBatch,
  type HouseStatusWire,
  type HouseUpdated,
  type SilenceChanged,
} from '../contract/live';
import { statusBatchOf } from '../contract/statusPacking';
import { type AlarmStore } from '../stores/AlarmStore';
import { type EnvControlStore } from '../stores/EnvControlStore';
import { type Command, type GatewayReported } from '../contract/envcontrol';
import { type HouseFeed, type HousesStore } from '../stores/HousesStore';
import { POLL_INTERVAL_MS, type LiveStore } from '../stores/LiveStore';
import { fetchUnacknowledgedCount } from './alarmsApi';
import { FrameQueue, MAX_QUEUED_ITEMS } from './frameQueue';
import { fetchOverview } from './housesApi';
import { nextLiveState, type LiveEvent } from './liveMachine';
import { createLiveSocket, type LiveSocket, type LiveSocketFactory } from './socket';

/**
 * The socket must connect and its first snapshot land within this time, else we poll: a proxy
 * that swallows WebSockets leaves the socket "connecting" forever without an error.
 */
export const FIRST_SNAPSHOT_TIMEOUT_MS = 10_000;
/** How long the first screen waits for the socket before it fetches the houses by itself. */
const FIRST_FETCH_WAIT_MS = 1_500;

/** What the socket says of houses' live parts: a delta, or a batch of packed statuses. */
type LiveChange = HouseDelta | HouseStatusBatch;

const isStatuses = (change: LiveChange): change is HouseStatusBatch => 'tops' in change;

/** A batch of packed statuses counts as its houses against the queue's cap. */
const weightOf = (change: LiveChange) =>
  isStatuses(change) ? change.houses.length / STATUS_STRIDE : 1;

export interface LiveStores {
  houses: HousesStore;
  live: LiveStore;
  alarms: AlarmStore;
  /** Absent on a kiosk wall, which shows no commands. */
  envcontrol?: EnvControlStore;
  /** Absent on a kiosk wall, which shows no house cards. */
  silences?: CurrentSilences;
}

/**
 * The console's live connection: the one socket, the 30 s poll fallback, and the state machine
 * between them. Socket handlers only push onto a frame queue; each animation
 * frame applies what arrived in one action.
 */
export class LiveConnection implements HouseFeed {
  private socket: LiveSocket | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private snapshotTimer: ReturnType<typeof setTimeout> | null = null;
  private alarmTimer: ReturnType<typeof setInterval> | null = null;
  /** Bumped per (re)connection: a snapshot of an older connection is not this one's. */
  private generation = 0;
  /** Once the hub sends 'alarm:count', the live state needs no count poll. */
  private liveAlarmCount = false;
  private readonly subscriptions = new Map<number, number>();
  /** The houses followed in full while the rest bring their status only; null: all in full. */
  private statusOnly: readonly number[] | null = null;
  /** The unacknowledged count's fetch in flight, and whether another change came meanwhile. */
  private unacknowledgedFetch: Promise<void> | null = null;
  private unacknowledgedStale = false;
  private readonly changes = new FrameQueue<LiveChange>(
    (batch) => this.applyChanges(batch),
    () => void this.refresh(),
    undefined,
    undefined,
    weightOf,
  );
  /**
   * Changes that arrive after this connection was made but before its snapshot landed. Dropping
   * them would leave a house behind until its next change (a raised alarm is sent once); after
   * the snapshot they are replayed in order, which ends on the latest value of every field.
   */
  private early: LiveChange[] = [];
  private earlyWeight = 0;
  private firstFetchTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly readings = new FrameQueue<HouseReading>((batch) =>
    runInAction(() => {
      for (const reading of batch) this.stores.houses.applyReading(reading);
    }),
  );

  constructor(
    private readonly api: ApiClient,
    private readonly token: () => string | undefined,
    private readonly stores: LiveStores,
    private readonly openSocket: LiveSocketFactory = createLiveSocket,
  ) {}

  get state() {
    return this.stores.live.state;
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.transition('start');
    window.addEventListener('online', this.handleOnline);
    window.addEventListener('offline', this.handleOffline);
    document.addEventListener('visibilitychange', this.handleVisibility);
    // The alarm count every 30 s. Polling fetches it with the houses; live needs it here
    // until the hub proves it pushes 'alarm:count'.
    this.alarmTimer = setInterval(() => {
      if (this.state === 'live' && !this.liveAlarmCount) void this.refreshAlarmCount();
    }, POLL_INTERVAL_MS);
    const socket = this.openSocket(this.token);
    this.socket = socket;
    socket.on('connect', this.handleConnect);
    socket.on('connect_error', this.handleConnectError);
    socket.on('disconnect', this.handleDisconnect);
    socket.on('house:updated', this.handleHouseUpdated);
    socket.on('house:status', this.handleHouseStatus);
    socket.on('house:reading', this.handleHouseReading);
    socket.on('alarm:count', this.handleAlarmCount);
    socket.on('alarm:raised', this.handleAlarmRaised);
    socket.on('alarm:acknowledged', this.handleAlarmAcknowledged);
    socket.on('alarm:cleared', this.handleAlarmCleared);
    socket.on('command:updated', this.handleCommandUpdated);
    socket.on('gateway:reported', this.handleGatewayReported);
    socket.on('silence:changed', this.handleSilenceChanged);
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      this.transition('browserOffline');
      return;
    }
    this.armSnapshotTimeout();
    socket.connect();
    // The socket's connection fetches the snapshot it needs; fetching one now as well cost a
    // second full read (5,000 houses: ~0.3 s of the database and 2.7 MB) on every page load.
    // Only a socket slow to connect leaves the first screen to a snapshot of its own.
    this.firstFetchTimer = setTimeout(() => {
      this.firstFetchTimer = null;
      if (this.state !== 'idle' && !this.socket?.connected) void this.refresh();
    }, FIRST_FETCH_WAIT_MS);
  }

  stop(): void {
    window.removeEventListener('online', this.handleOnline);
    window.removeEventListener('offline', this.handleOffline);
    document.removeEventListener('visibilitychange', this.handleVisibility);
    const socket = this.socket;
    if (socket) {
      socket.off('connect', this.handleConnect);
      socket.off('connect_error', this.handleConnectError);
      socket.off('disconnect', this.handleDisconnect);
      socket.off('house:updated', this.handleHouseUpdated);
      socket.off('house:status', this.handleHouseStatus);
      socket.off('house:reading', this.handleHouseReading);
      socket.off('alarm:count', this.handleAlarmCount);
      socket.off('alarm:raised', this.handleAlarmRaised);
      socket.off('alarm:acknowledged', this.handleAlarmAcknowledged);
      socket.off('alarm:cleared', this.handleAlarmCleared);
      socket.off('command:updated', this.handleCommandUpdated);
      socket.off('gateway:reported', this.handleGatewayReported);
      socket.off('silence:changed', this.handleSilenceChanged);
      socket.disconnect();
    }
    this.socket = null;
    if (this.alarmTimer !== null) clearInterval(this.alarmTimer);
    this.alarmTimer = null;
    this.stopPolling();
    this.clearSnapshotTimeout();
    if (this.firstFetchTimer !== null) clearTimeout(this.firstFetchTimer);
    this.firstFetchTimer = null;
    this.changes.clear();
    this.dropEarly();
    this.readings.clear();
    this.subscriptions.clear();
    this.transition('stop');
    this.stores.houses.clear();
  }

  /** Full-rate readings of one house while the caller holds the subscription (monitor page). */
  subscribeHouse(houseId: number): () => void {
    this.subscriptions.set(houseId, (this.subscriptions.get(houseId) ?? 0) + 1);
    if (this.socket?.connected) this.socket.emit('house:subscribe', houseId, () => undefined);
    return () => {
      const left = (this.subscriptions.get(houseId) ?? 1) - 1;
      if (left > 0) {
        this.subscriptions.set(houseId, left);
        return;
      }
      this.subscriptions.delete(houseId);
      if (this.socket?.connected) this.socket.emit('house:unsubscribe', houseId);
    };
  }

  /**
   * Asks the hub for houses' status only, and every field of `follow`, or (null) for every
   * field again; the hub first sends what this socket missed of the houses it hears in full
   * again. A new socket starts with every field and is told again on connection.
   */
  showStatusOnly(follow: readonly number[] | null): void {
    const before = this.statusOnly;
    this.statusOnly = follow;
    if (before === null && follow === null) return;
    if (this.socket?.connected) this.emitDetail();
  }

  private emitDetail(): void {
    const follow = this.statusOnly;
    this.socket?.emit(
      'live:detail',
      follow === null ? { detail: 'all' } : { detail: 'status', follow: [...follow] },
      () => undefined,
    );
  }

  /** Fetches the houses and the alarm count now (poll, reconnect, re-check). */
  async refresh(): Promise<boolean> {
    const generation = this.generation;
    // Beside the snapshot, not part of it: the houses do not wait for the silences.
    void this.stores.silences?.load().catch(() => undefined);
    try {
      const [rows] = await Promise.all([
        fetchOverview(this.api),
        this.liveAlarmCount && this.state === 'live' ? null : this.refreshAlarmCount(),
      ]);
      if (this.state === 'idle') return false;
      runInAction(() => {
        this.stores.houses.applySnapshot(rows);
        this.stores.live.markUpdated(Date.now());
      });
      return generation === this.generation;
    } catch {
      // The indicator tells the user; the next poll or reconnect tries again.
      return false;
    }
  }

  private async refreshAlarmCount(): Promise<void> {
    this.refreshUnacknowledged();
    try {
      const count = await fetchAlarmAmount(this.api);
      this.stores.alarms.setActiveCount(count);
    } catch {
      // The client has told the user; the next poll tries again.
    }
  }

  /**
   * Fetches how many alarms await acknowledgement. A burst of alarm events costs at most one
   * fetch in flight and one after it (the latest answer wins), never one per event.
   */
  private refreshUnacknowledged(): void {
    if (this.unacknowledgedFetch) {
      this.unacknowledgedStale = true;
      return;
    }
    this.unacknowledgedFetch = fetchUnacknowledgedCount(this.api)
      .then(
        (count) => {
          if (this.state !== 'idle') this.stores.alarms.setUnacknowledgedCount(count);
        },
        () => undefined, // Told by the client or the indicator; the next change tries again.
      )
      .finally(() => {
        this.unacknowledgedFetch = null;
        if (this.unacknowledgedStale && this.state !== 'idle') {
          this.unacknowledgedStale = false;
          this.refreshUnacknowledged();
        }
      });
  }

  private transition(event: LiveEvent): void {
    const before = this.state;
    const after = nextLiveState(before, event);
    if (after === before) return;
    this.stores.live.setState(after);
    if (after === 'polling') this.startPolling();
    else this.stopPolling();
  }

  private startPolling(): void {
    if (this.pollTimer !== null) return;
    void this.refresh();
    this.pollTimer = setInterval(() => void this.refresh(), POLL_INTERVAL_MS);
  }

  private stopPolling(): void {
    if (this.pollTimer !== null) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  private armSnapshotTimeout(): void {
    this.clearSnapshotTimeout();
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = null;
      if (this.state === 'connecting') this.transition('snapshotTimeout');
    }, FIRST_SNAPSHOT_TIMEOUT_MS);
  }

  private clearSnapshotTimeout(): void {
    if (this.snapshotTimer !== null) clearTimeout(this.snapshotTimer);
    this.snapshotTimer = null;
  }

  /** One frame's changes in one action, in the order they came (deltas in runs between batches). */
  private applyChanges(batch: LiveChange[]): void {
    const houses = this.stores.houses;
    runInAction(() => {
      let run: HouseDelta[] = [];
      for (const change of batch) {
        if (!isStatuses(change)) {
          run.push(change);
          continue;
        }
        if (run.length > 0) houses.applyDeltas(run);
        run = [];
        houses.applyStatuses(change);
      }
      if (run.length > 0) houses.applyDeltas(run);
      this.stores.live.markUpdated(Date.now());
    });
  }

  private dropEarly(): void {
    this.early = [];
    this.earlyWeight = 0;
  }

  private readonly handleConnect = () => {
    this.generation += 1;
    const generation = this.generation;
    this.transition('connected');
    this.liveAlarmCount = false;
    this.changes.clear();
    this.dropEarly();
    for (const houseId of this.subscriptions.keys())
      this.socket?.emit('house:subscribe', houseId, () => undefined);
    if (this.statusOnly !== null) this.emitDetail();
    void this.refresh().then((fresh) => {
      if (fresh && generation === this.generation && this.socket?.connected) {
        this.clearSnapshotTimeout();
        this.transition('snapshotLoaded');
        const early = this.early;
        this.dropEarly();
        if (early.length > 0) this.changes.push(...early);
      }
    });
  };

  private readonly handleConnectError = (error: Error) => {
    this.transition('connectError');
    // The hub refuses a handshake whose session has ended. Polling would find that out only at
    // its next tick (up to 30 s); asking now gets the 401 that signs the user out.
    if (error.message === 'unauthorized') void this.refresh();
  };

  private readonly handleDisconnect = (reason: string) => {
    this.transition('disconnected');
    // The server ends a socket itself on logout or a password change elsewhere; Socket.IO does
    // not retry those, so we do: a dead session then fails the handshake and we stay polling.
    if (reason === 'io server disconnect') this.socket?.connect();
  };

  private readonly handleHouseUpdated = (batch: HouseUpdated) => this.take(batch.deltas);

  private readonly handleHouseStatus = (wire: HouseStatusWire) => {
    const batch = statusBatchOf(wire);
    // Bytes that are not whole houses: a fresh snapshot rather than statuses misread.
    if (batch) this.take([batch]);
    else void this.refresh();
  };

  private take(changes: LiveChange[]): void {
    if (this.state === 'live') this.changes.push(...changes);
    else if (this.socket?.connected && this.state !== 'idle') {
      for (const change of changes) {
        this.early.push(change);
        this.earlyWeight += weightOf(change);
      }
      // A snapshot that takes this long is fetched again anyway (the queue's overflow rule).
      if (this.earlyWeight > MAX_QUEUED_ITEMS) this.dropEarly();
    }
  }

  private readonly handleHouseReading = (reading: HouseReading) => this.readings.push(reading);

  private readonly handleAlarmCount = (count: number) => {
    // Sent on (re)connection too, when events may have been missed: re-read the other number.
    if (!this.liveAlarmCount) this.refreshUnacknowledged();
    this.liveAlarmCount = true;
    this.stores.alarms.setActiveCount(count);
  };

  // Alarm events are few (a raise, an acknowledgement): applied at once, not per frame. Each
  // may change how many await acknowledgement, which no event carries.
  /** Command states are rare (a few per change): applied at once, in one action each. */
  private readonly handleCommandUpdated = (command: Command) => {
    runInAction(() => this.stores.envcontrol?.applyCommand(command));
  };
  private readonly handleGatewayReported = (report: GatewayReported) => {
    runInAction(() => this.stores.envcontrol?.applyReport(report));
  };

  /**
   * A silence began or ended for houses this user sees: the alarm list's tags and the silences
   * the house cards mark are read again.
   */
  private readonly handleSilenceChanged = (change: SilenceChanged) => {
    void this.stores.alarms.silencesChanged(this.api, change.houseIds).catch(() => undefined);
    void this.stores.silences?.load().catch(() => undefined);
  };

  private readonly handleAlarmRaised = (alarm: AlarmEvent) => {
    this.stores.alarms.applyAlarmEvent('raised', alarm);
    this.refreshUnacknowledged();
  };
  private readonly handleAlarmAcknowledged = (alarm: AlarmEvent) => {
    this.stores.alarms.applyAlarmEvent('acknowledged', alarm);
    this.refreshUnacknowledged();
  };
  private readonly handleAlarmCleared = (alarm: AlarmEvent) => {
    this.stores.alarms.applyAlarmEvent('cleared', alarm);
    this.refreshUnacknowledged();
  };

  private readonly handleOnline = () => {
    this.transition('browserOnline');
    this.recheck();
  };

  private readonly handleOffline = () => this.transition('browserOffline');

  private readonly handleVisibility = () => {
    if (document.visibilityState === 'visible') this.recheck();
  };

  /** A hidden tab or a network change may have missed events: reconnect or poll now. */
  private recheck(): void {
    const socket = this.socket;
    if (!socket || this.state === 'idle' || this.state === 'offline') return;
    if (socket.connected) {
      void this.refresh().then((fresh) => {
        if (fresh && socket.connected) this.transition('snapshotLoaded');
      });
      return;
    }
    socket.connect();
    if (this.state === 'connecting') this.armSnapshotTimeout();
    void this.refresh();
  }
}
