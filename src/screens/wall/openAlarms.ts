import { action, makeObservable, observable, observableRef, reaction } from 'mobx';
import { type TFunction } from 'i18next';
import { type ApiClient } from '../../api/client';
import { type Alarm } from '../../contract/alarms';
import { WALL_OPEN_ALARMS_MAX, wallOpenAlarmsSchema, worstFirst } from '../../contract/wallAlarms';
import { polled } from './wallReads';

export type AlarmEventKind = 'raised' | 'acknowledged' | 'cleared';

/** Where live alarm events come from (the AlarmStore src/realtime feeds). */
export interface AlarmFeed {
  onEvent?(listener: (kind: AlarmEventKind, alarm: Alarm) => void): () => void;
}

/**
 * How a wall panel built from alarms stays true: it hears every event of `feed`, and reads
 * itself whole now and each time the connection comes back (`live()` turns true), since
 * events were missed while it was down. Answers what stops it all.
 */
export function followAlarms(
  feed: AlarmFeed | undefined,
  live: () => boolean,
  panel: { apply(kind: AlarmEventKind, alarm: Alarm): void; load(): Promise<void> },
): (() => void)[] {
  const disposers: (() => void)[] = [reaction(live, (isLive) => isLive && void panel.load())];
  const events = feed?.onEvent?.((kind, alarm) => panel.apply(kind, alarm));
  if (events) disposers.push(events);
  void panel.load();
  return disposers;
}

/** After a clear left fewer rows than are open, the list is read again once things settle. */
const REFILL_DELAY_MS = 1_000;

/**
 * "What is wrong now": the open alarms of the wall's scope, worst first. Read once when the wall
 * opens (and after an outage), then kept by the live alarm events the wall already hears: a
 * raise adds its row, an acknowledgement marks it, a clear removes it. Nothing polls.
 */
export class OpenAlarms {
  /** The open alarms held, worst first (at most WALL_OPEN_ALARMS_MAX). */
  list: readonly Alarm[] = [];
  /** How many are open in the scope, the held ones and the less grave beyond them. */
  total = 0;
  /** The alarm cleared last (from the server, or the last clear heard): the empty list names it. */
  lastCleared: Alarm | null = null;
  loaded = false;
  private readonly byId = new Map<number, Alarm>();
  /** Events heard while a read is under way, applied again over its answer (see load). */
  private pending: [AlarmEventKind, Alarm][] | null = null;
  private refill: ReturnType<typeof setTimeout> | null = null;
  private readonly disposers: (() => void)[] = [];

  constructor(private readonly api: ApiClient) {
    makeObservable<OpenAlarms, 'settle'>(this, {
      list: observableRef,
      total: observable,
      lastCleared: observableRef,
      loaded: observable,
      apply: action,
      settle: action,
    });
  }

  /** Hears `feed` and reads the list now and each time `live()` becomes true again. */
  start(feed: AlarmFeed | undefined, live: () => boolean): void {
    this.disposers.push(...followAlarms(feed, live, this), () => {
      if (this.refill !== null) clearTimeout(this.refill);
    });
  }

  stop(): void {
    for (const dispose of this.disposers.splice(0)) dispose();
  }

  async load(): Promise<void> {
    // An event may pass the read on its way: kept, and applied over the answer (idempotent).
    this.pending ??= [];
    try {
      const answer = await this.api.get('/wall/alarms', {
        schema: wallOpenAlarmsSchema,
        ...polled,
      });
      action(() => {
        const heard = this.pending ?? [];
        this.pending = null;
        this.byId.clear();
        for (const alarm of answer.alarms) this.byId.set(alarm.id, alarm);
        this.total = answer.total;
        this.lastCleared = answer.lastCleared ?? this.lastCleared;
        for (const [kind, alarm] of heard) this.change(kind, alarm);
        this.loaded = true;
        this.settle();
      })();
    } catch {
      // Retried at the next reconnect; until then the live events keep what is held.
      this.pending = null;
    }
  }

  /** A live alarm event of the scope. */
  apply(kind: AlarmEventKind, alarm: Alarm): void {
    this.pending?.push([kind, alarm]);
    this.change(kind, alarm);
    this.settle();
  }

  private change(kind: AlarmEventKind, alarm: Alarm): void {
    const known = this.byId.has(alarm.id);
    if (kind === 'cleared' || alarm.state === 'cleared') {
      if (known || this.total > this.byId.size) this.total = Math.max(0, this.total - 1);
      this.byId.delete(alarm.id);
      this.lastCleared = alarm;
      return;
    }
    if (!known && kind === 'raised') this.total += 1;
    this.byId.set(alarm.id, alarm);
  }

  /** Sorts, lets the least grave past the bound go, and reads again when rows are missing. */
  private settle(): void {
    const sorted = [...this.byId.values()].sort(worstFirst);
    for (const dropped of sorted.splice(WALL_OPEN_ALARMS_MAX)) this.byId.delete(dropped.id);
    this.list = sorted;
    this.total = Math.max(this.total, sorted.length);
    const missing = sorted.length < Math.min(this.total, WALL_OPEN_ALARMS_MAX);
    if (missing && this.loaded && this.refill === null && this.pending === null)
      this.refill = setTimeout(() => {
        this.refill = null;
        void this.load();
      }, REFILL_DELAY_MS);
  }
}

/** How long an alarm has been open, in the largest two units a person reads at a glance. */
export function openFor(t: TFunction, raisedAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(raisedAt)) / 60_000));
  if (minutes < 1) return t('wall.open.ageJustNow');
  if (minutes < 60) return t('wall.open.ageMinutes', { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('wall.open.ageHours', { hours, minutes: minutes % 60 });
  return t('wall.open.ageDays', { days: Math.floor(hours / 24), hours: hours % 24 });
}
