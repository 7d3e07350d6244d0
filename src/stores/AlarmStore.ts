import { makeAutoObservable, observable, runInAction } from 'mobx';
import { type ApiClient } from '../api/client';
import { alarmSchema, type Alarm, type AlarmListQuery } from '../contract/alarms';
import { pagedSchema } from '../contract/paged';

export type AlarmEventKind = 'raised' | 'acknowledged' | 'cleared';

const pageSchema = pagedSchema(alarmSchema);

/**
 * The real-time alarm count of the top bar and the alarm list. src/realtime feeds it
 * (`applyCount`, `applyAlarmEvent` from the socket; `setActiveCount` from the 30 s poll); a
 * live event and a reload take the same path (`upsert`), so applying one twice is harmless.
 */
/** Rows live events may add to the list before the oldest are let go. */
const MAX_LIVE_ROWS = 200;

export class AlarmStore {
  /** Open (active or acknowledged) alarms in the user's scope: the badge's number. */
  activeCount = 0;
  /** Of those, the ones nobody has acknowledged yet: the badge is red while there are any. */
  unacknowledgedCount = 0;
  /** Alarms by id: the list's rows and whatever live events brought since. */
  readonly byId = observable.map<number, Alarm>();
  /** The list's order (ids), newest first, and its total for the pager. */
  order: number[] = [];
  total = 0;
  query: AlarmListQuery = { page: 1, size: 20, state: 'open' };
  loaded = false;
  /** Bumped on each live silence change this user may see: an open silences page reloads. */
  silenceChanges = 0;

  /** Who hears each live alarm event as it comes (the wall keeps its own list of open alarms). */
  private readonly listeners = new Set<(kind: AlarmEventKind, alarm: Alarm) => void>();

  constructor() {
    makeAutoObservable<AlarmStore, 'listeners'>(this, { byId: false, listeners: false });
  }

  /** Calls `listener` with every live alarm event from now on; answers how to stop. */
  onEvent(listener: (kind: AlarmEventKind, alarm: Alarm) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setActiveCount(count: number): void {
    this.activeCount = Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
  }

  setUnacknowledgedCount(count: number): void {
    this.unacknowledgedCount = Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
  }

  /** The live hub's count of open alarms in the user's scope. */
  applyCount(count: number): void {
    this.setActiveCount(count);
  }

  /** A live `alarm:raised|acknowledged|cleared`: updates the row, and shows a new one first. */
  applyAlarmEvent(kind: AlarmEventKind, alarm: Alarm): void {
    const known = this.byId.has(alarm.id);
    this.upsert(alarm);
    if (kind === 'raised' && !known && this.matches(alarm)) {
      // A console or wall left open for weeks hears every alarm: keep a bounded list.
      const dropped = this.order.slice(MAX_LIVE_ROWS - 1);
      this.order = [alarm.id, ...this.order.slice(0, MAX_LIVE_ROWS - 1)];
      for (const id of dropped) this.forgetIfCleared(id);
      this.total += 1;
    }
    if (alarm.state === 'cleared') this.forgetIfCleared(alarm.id);
    for (const listener of this.listeners) listener(kind, alarm);
  }

  upsert(alarm: Alarm): void {
    const current = this.byId.get(alarm.id);
    if (current) Object.assign(current, alarm);
    else this.byId.set(alarm.id, observable(alarm));
  }

  /** A cleared alarm no list shows is of no more use here. */
  private forgetIfCleared(id: number): void {
    if (this.byId.get(id)?.state === 'cleared' && !this.order.includes(id)) this.byId.delete(id);
  }

  get rows(): Alarm[] {
    return this.order.map((id) => this.byId.get(id)).filter((a): a is Alarm => a !== undefined);
  }

  /** The open alarms of one house (the house monitor shows them with their acknowledge button). */
  openOf(houseId: number): Alarm[] {
    return [...this.byId.values()].filter((a) => a.houseId === houseId && a.state !== 'cleared');
  }

  /**
   * A silence began or ended for these houses (the live hub's `silence:changed`): whether an
   * alarm here is held changed, so a loaded list is read again when it holds one of theirs.
   */
  silencesChanged(api: ApiClient, houseIds: readonly number[]): Promise<void> {
    this.silenceChanges += 1;
    const houses = new Set(houseIds);
    if (!this.loaded || !this.rows.some((a) => houses.has(a.houseId))) return Promise.resolve();
    return this.load(api);
  }

  setQuery(patch: Partial<AlarmListQuery>): void {
    this.query = { ...this.query, ...patch };
  }

  async load(api: ApiClient, page = this.query.page ?? 1): Promise<void> {
    this.query = { ...this.query, page };
    const q = Object.fromEntries(
      Object.entries(this.query).filter(([, v]) => v !== undefined && v !== ''),
    ) as Record<string, string | number>;
    const result = await api.get('/alarm/list', { query: q, schema: pageSchema });
    runInAction(() => {
      // A list row says whether a silence holds it now; live events do not, and keep the tag.
      for (const a of result.rows) this.upsert({ ...a, silenced: a.silenced ?? false });
      this.order = result.rows.map((a) => a.id);
      this.total = result.total;
      this.loaded = true;
    });
  }

  async acknowledge(api: ApiClient, id: number, comment?: string): Promise<void> {
    const alarm = await api.post('/alarm/acknowledge', {
      body: { id, comment },
      schema: alarmSchema,
    });
    this.upsert(alarm);
  }

  async clear(api: ApiClient, id: number): Promise<void> {
    const alarm = await api.post('/alarm/clear', { body: { id }, schema: alarmSchema });
    this.upsert(alarm);
  }

  reset(): void {
    this.setActiveCount(0);
    this.setUnacknowledgedCount(0);
    this.byId.clear();
    this.order = [];
    this.total = 0;
    this.loaded = false;
  }

  private matches(alarm: Alarm): boolean {
    const q = this.query;
    if (q.state && q.state !== 'all' && q.state !== 'open' && q.state !== alarm.state) return false;
    if (q.houseId && Number(q.houseId) !== alarm.houseId) return false;
    if (q.farmId && Number(q.farmId) !== alarm.farmId) return false;
    if (q.cause && q.cause !== alarm.cause) return false;
    return !(q.severity && q.severity !== alarm.severity);
  }
}
