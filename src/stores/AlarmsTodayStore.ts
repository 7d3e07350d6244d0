import { action, makeObservable, observableRef, reaction } from 'mobx';
import { type ApiClient } from '../api/client';
import { alarmTodaySchema, type AlarmToday } from '../contract/alarms';
import { type AlarmStore } from './AlarmStore';
import { POLL_INTERVAL_MS } from './LiveStore';
import { LatestAsk } from './latestAsk';

/**
 * Today's alarms in the scope by cause (GET /alarm/today), for the home dashboard. Kept fresh
 * only while a page watches it: fetched again whenever the open count or the alarms the socket
 * brought change (a raise moves both), and every 30 s, which also catches midnight and anything
 * missed while the connection polled.
 */
export class AlarmsTodayStore {
  /** Null until the first answer. */
  causes: AlarmToday | null = null;
  private watchers = 0;
  private stopWatching: (() => void) | null = null;
  /** Answers may cross: only the newest call's answer is kept. */
  private readonly latest = new LatestAsk();

  constructor(
    private readonly api: ApiClient,
    private readonly alarms: AlarmStore,
    private readonly refreshMs = POLL_INTERVAL_MS,
  ) {
    makeObservable<AlarmsTodayStore, 'setCauses'>(this, {
      causes: observableRef,
      setCauses: action,
    });
  }

  /** Keeps the figures fresh until the returned function is called (the page, in an effect). */
  watch(): () => void {
    this.watchers += 1;
    if (this.watchers === 1) this.start();
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      this.watchers -= 1;
      if (this.watchers === 0) {
        this.stopWatching?.();
        this.stopWatching = null;
      }
    };
  }

  /** Fetches now; a failure keeps the last figures (the live indicator tells of outages). */
  async load(): Promise<void> {
    const call = this.latest.ask();
    try {
      // Quiet: the dashboard refetches on every count change, a toast each time would flood.
      const causes = await this.api.get('/alarm/today', {
        schema: alarmTodaySchema,
        quiet: () => true,
      });
      if (this.latest.isLatest(call)) this.setCauses(causes);
    } catch {
      // Kept as they were; the next change or tick tries again.
    }
  }

  private start(): void {
    void this.load();
    const dispose = reaction(
      () => [this.alarms.activeCount, this.alarms.byId.size],
      () => void this.load(),
    );
    const timer = setInterval(() => void this.load(), this.refreshMs);
    this.stopWatching = () => {
      dispose();
      clearInterval(timer);
      // An answer still on its way belongs to a watch that has ended.
      this.latest.forget();
    };
  }

  private setCauses(causes: AlarmToday): void {
    this.causes = causes;
  }
}
