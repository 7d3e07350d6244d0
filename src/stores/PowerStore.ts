import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import { alarmPlaceSchema, type AlarmPlace } from '../contract/alarms';
import { powerAnswerSchema, type PowerAnswer } from '../contract/production';
import { powerMonthSchema, type PowerMonth } from '../contract/productionPower';

const placesSchema = z.array(alarmPlaceSchema);

/** The power page: a farm's or one house's electricity of a day, with its cost. Made by the page. */
export class PowerStore {
  places: AlarmPlace[] = [];
  /** `farm:3` or `house:12`. */
  target = '';
  day: string;
  power: PowerAnswer | null = null;
  /** The chosen day's month, day by day. */
  month: PowerMonth | null = null;

  constructor(
    private readonly api: ApiClient,
    today: string,
  ) {
    this.day = today;
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  async loadPlaces(): Promise<void> {
    const places = await this.api.get('/alarm/places', { schema: placesSchema });
    runInAction(() => {
      this.places = places;
      if (!this.target && places[0]) this.target = `farm:${places[0].farmId}`;
    });
    await this.load();
  }

  async choose(target: string, day: string): Promise<void> {
    this.target = target;
    this.day = day;
    await this.load();
  }

  async load(): Promise<void> {
    const [kind, id] = this.target.split(':');
    if (!id) return;
    const key = kind === 'house' ? 'houseId' : 'farmId';
    const [power, month] = await Promise.all([
      this.api.get(`/production/power?${key}=${id}&day=${this.day}`, {
        schema: powerAnswerSchema,
      }),
      this.api.get(`/production/power/month?${key}=${id}&month=${this.day.slice(0, 7)}`, {
        schema: powerMonthSchema,
      }),
    ]);
    runInAction(() => {
      this.power = power;
      this.month = month;
    });
  }
}
