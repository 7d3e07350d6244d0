import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import { alarmPlaceSchema, type AlarmPlace } from '../contract/alarms';
import {
  flockKpisSchema,
  flockListSchema,
  type FlockKpis,
  type FlockSummary,
} from '../contract/production';
import { remindersSchema, type Reminder } from '../contract/reminders';

const placesSchema = z.array(alarmPlaceSchema);
const stateSchema = z.object({ state: z.string() });

/**
 * The flocks page: a house's flocks (records that never expire), one flock's KPIs by day of
 * age with the breed standard, and the house's tasks of the day. Made by the page itself.
 */
export class FlocksStore {
  places: AlarmPlace[] = [];
  houseId: number | null = null;
  flocks: FlockSummary[] | null = null;
  flockId: number | null = null;
  kpis: FlockKpis | null = null;
  tasks: Reminder[] = [];

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  async loadPlaces(): Promise<void> {
    const places = await this.api.get('/alarm/places', { schema: placesSchema });
    runInAction(() => (this.places = places));
    const first = places[0];
    if (this.houseId === null && first) await this.chooseHouse(first.houseId);
  }

  async chooseHouse(houseId: number): Promise<void> {
    this.houseId = houseId;
    this.flocks = null;
    this.kpis = null;
    const [{ rows }] = await Promise.all([
      this.api.get(`/production/flocks?houseId=${houseId}`, { schema: flockListSchema }),
      this.loadTasks(),
    ]);
    runInAction(() => (this.flocks = rows));
    const open = rows.find((f) => f.closedOn === null) ?? rows[0];
    if (open) await this.chooseFlock(open.id);
  }

  async chooseFlock(flockId: number): Promise<void> {
    this.flockId = flockId;
    const kpis = await this.api.get(`/production/kpi?flockId=${flockId}`, {
      schema: flockKpisSchema,
    });
    runInAction(() => {
      if (this.flockId === flockId) this.kpis = kpis;
    });
  }

  async loadTasks(): Promise<void> {
    if (this.houseId === null) return;
    const { rows } = await this.api.get(`/reminder/today?houseId=${this.houseId}`, {
      schema: remindersSchema,
    });
    runInAction(() => (this.tasks = rows.filter((r) => r.kind === 'task')));
  }

  /** Marks a task of the day done or skipped, then reloads the house's tasks. */
  async decide(task: Reminder, state: 'done' | 'skipped', note = ''): Promise<void> {
    await this.api.post('/production/task', {
      body: {
        flockId: Number(task.params.flockId),
        ageDay: Number(task.params.ageDay),
        content: String(task.params.content),
        state,
        note,
      },
      schema: stateSchema,
    });
    await this.loadTasks();
  }
}
