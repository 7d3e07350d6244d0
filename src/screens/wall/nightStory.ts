import { action, makeObservable, observableRef, reaction } from 'mobx';
import { type ApiClient } from '../../api/client';
import { type Alarm } from '../../contract/alarms';
import {
  DAY_MS,
  dayTotals,
  emptyHour,
  HOUR_MS,
  WALL_NIGHT_HOURS,
  wallNightSchema,
  type WallNight,
  type WallNightHour,
} from '../../contract/wallNight';
import { followAlarms, type AlarmEventKind, type AlarmFeed } from './openAlarms';
import { polled } from './wallReads';

/** The events the story counts (an acknowledgement changes no count). */
type Counted = Exclude<AlarmEventKind, 'acknowledged'>;

/** `night` with one more alarm of `kind` counted at `at`, when `at` lies in its 48 hours. */
export function countedIn(night: WallNight, kind: Counted, alarm: Alarm, at: number): WallNight {
  const first = Date.parse(night.hourStart) - (WALL_NIGHT_HOURS - 1) * HOUR_MS;
  const slot = Math.floor((at - first) / HOUR_MS);
  const series = slot >= 0 ? 'today' : 'yesterday';
  const index = slot >= 0 ? slot : slot + WALL_NIGHT_HOURS;
  if (index < 0 || index >= WALL_NIGHT_HOURS) return night;
  const hours = [...night[series]];
  const hour = hours[index]!;
  hours[index] = {
    ...hour,
    [kind]: { ...hour[kind], [alarm.severity]: hour[kind][alarm.severity] + 1 },
  };
  const next = { ...night, [series]: hours };
  return { ...next, totals: dayTotals(next) };
}

/**
 * `night` moved on to the hour holding `now`: each new hour starts empty, and the hour leaving
 * the last 24 becomes the new hour's yesterday (it is exactly a day before it). No read needed.
 */
export function rolledTo(night: WallNight, now: number): WallNight {
  let start = Date.parse(night.hourStart);
  if (now < start + HOUR_MS) return night;
  const today: WallNightHour[] = [...night.today];
  const yesterday: WallNightHour[] = [...night.yesterday];
  let midnight = Date.parse(night.midnight);
  // Past a whole window nothing is left to carry over: two days of empty hours at most.
  for (let n = 0; now >= start + HOUR_MS && n < 2 * WALL_NIGHT_HOURS; n += 1) {
    yesterday.shift();
    yesterday.push(today.shift()!);
    today.push(emptyHour());
    start += HOUR_MS;
    if (start - midnight >= DAY_MS) midnight += DAY_MS;
  }
  start += Math.floor((now - start) / HOUR_MS) * HOUR_MS;
  while (start - midnight >= DAY_MS) midnight += DAY_MS;
  const next = {
    ...night,
    hourStart: new Date(start).toISOString(),
    midnight: new Date(midnight).toISOString(),
    today,
    yesterday,
  };
  return { ...next, totals: dayTotals(next) };
}

/**
 * "The night's story": alarms raised and cleared per hour over the last 24 hours beside the day
 * before, and the day's counts. Read when the wall opens (and after an outage), then counted on
 * from the live alarm events the wall already hears, and moved on each hour by the wall's
 * clock. Nothing polls.
 */
export class NightStory {
  night: WallNight | null = null;
  /** What was counted from events and when, so an event heard twice counts once. */
  private readonly counted = new Map<string, number>();
  /** Events heard while a read is under way: those later than its count are added to it. */
  private pending: [Counted, Alarm][] | null = null;
  private readonly disposers: (() => void)[] = [];

  constructor(
    private readonly api: ApiClient,
    private readonly clock: () => number,
  ) {
    makeObservable<NightStory, 'answer'>(this, {
      night: observableRef,
      apply: action,
      roll: action,
      answer: action,
    });
  }

  start(feed: AlarmFeed | undefined, live: () => boolean): void {
    this.disposers.push(
      ...followAlarms(feed, live, this),
      reaction(
        () => Math.floor(this.clock() / 60_000),
        () => this.roll(),
      ),
    );
  }

  stop(): void {
    for (const dispose of this.disposers.splice(0)) dispose();
  }

  async load(): Promise<void> {
    this.pending ??= [];
    try {
      // No zone asked: the hours are the deployment's, like every other day on the wall.
      const answer = await this.api.get('/wall/night', {
        schema: wallNightSchema,
        ...polled,
      });
      this.answer(answer);
    } catch {
      // Read again at the next reconnect; until then the events keep counting what is held.
      this.pending = null;
    }
  }

  private answer(answer: WallNight): void {
    const heard = this.pending ?? [];
    this.pending = null;
    this.counted.clear();
    this.night = answer;
    const asOf = Date.parse(answer.asOf);
    for (const [kind, alarm] of heard) if (timeOf(kind, alarm) > asOf) this.apply(kind, alarm);
    this.roll();
  }

  /** A live alarm event of the wall's scope: a raise or a clear counts in its hour. */
  apply(kind: AlarmEventKind, alarm: Alarm): void {
    if (kind === 'acknowledged') return;
    const key = `${kind}:${alarm.id}`;
    const at = timeOf(kind, alarm);
    this.pending?.push([kind, alarm]);
    if (!this.night || this.counted.has(key)) return;
    this.counted.set(key, at);
    this.night = countedIn(rolledTo(this.night, Math.max(this.clock(), at)), kind, alarm, at);
  }

  roll(): void {
    if (!this.night) return;
    const before = this.night.hourStart;
    this.night = rolledTo(this.night, this.clock());
    if (this.night.hourStart === before) return;
    // What left both days can no longer be counted twice: forgotten, so the memory stays bounded.
    const oldest = Date.parse(this.night.hourStart) - (2 * WALL_NIGHT_HOURS - 1) * HOUR_MS;
    for (const [key, at] of this.counted) if (at < oldest) this.counted.delete(key);
  }
}

/** When an event's alarm was raised, or cleared. */
function timeOf(kind: Counted, alarm: Alarm): number {
  return Date.parse(kind === 'cleared' ? (alarm.clearedAt ?? alarm.raisedAt) : alarm.raisedAt);
}
