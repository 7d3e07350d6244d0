import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import { alarmPlaceSchema, type AlarmPlace } from '../contract/alarms';
import { powerAnswerSchema, type PowerAnswer } from '../contract/production';
import { powerMonthSchema, type PowerMonth } from '../contract/productionPower';
import { LatestAsk } from './latestAsk';

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
  /** A farm or day chosen while the last one's answer is on its way: only the latest shows. */
  private readonly latest = new LatestAsk();

  constructor(
    private readonly api: ApiClient,
    today: string,
  ) {
    this.day = today;
    makeAutoObservable<this, 'api' | 'latest'>(this, { api: false, latest: false });
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
    const asked = this.latest.ask();
    const [power, month] = await Promise.all([
      this.api.get(`/production/power?${key}=${id}&day=${this.day}`, {
        schema: powerAnswerSchema,
      }),
      this.api.get(`/production/power/month?${key}=${id}&month=${this.day.slice(0, 7)}`, {
        schema: powerMonthSchema,
      }),
    ]);
    if (!this.latest.isLatest(asked)) return;
    runInAction(() => {
      this.power = power;
      this.month = month;
    });
  }
}
