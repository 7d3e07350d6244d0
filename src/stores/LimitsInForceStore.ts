import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import { limitsInForceSchema, type LimitsInForce } from '../contract/alarmLimits';
import { houseAlarmLimitsSchema } from '../contract/alarms';
import { LatestAsk } from './latestAsk';

/**
 * The limits Roost raises a house's climate alarms at, beside the controller's own in House
 * Setting, and the house's choice to follow its controller's limits instead.
 */
export class LimitsInForceStore {
  answer: LimitsInForce | null = null;
  saving = false;
  private readonly latest = new LatestAsk();

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api' | 'latest'>(this, { api: false, latest: false });
  }

  async load(houseId: number): Promise<void> {
    const asked = this.latest.ask();
    const answer = await this.api.get(`/alarm/limitsInForce?houseId=${houseId}`, {
      schema: limitsInForceSchema,
    });
    if (this.latest.isLatest(asked)) runInAction(() => (this.answer = answer));
  }

  /** Follow the controller's limits, or go back to Roost's; the house's other limits stay. */
  async follow(houseId: number, followController: boolean): Promise<void> {
    this.saving = true;
    try {
      const limits = await this.api.get(`/alarm/limits?houseId=${houseId}`, {
        schema: houseAlarmLimitsSchema,
      });
      await this.api.put('/alarm/limits', {
        body: { houseId, limits: { ...limits, followController } },
        schema: z.unknown(),
      });
      await this.load(houseId);
    } finally {
      runInAction(() => (this.saving = false));
    }
  }
}
