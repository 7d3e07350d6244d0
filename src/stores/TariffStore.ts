import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import {
  TARIFF_PERIODS,
  type Tariff,
  type TariffCurrency,
  type TariffPeriod,
} from '../contract/production';
import { tariffAnswerSchema } from '../contract/productionPower';

const orgsSchema = z.array(z.object({ id: z.number().int(), name: z.string() }));
const savedSchema = z.object({ tariff: z.unknown() });

/** A tariff not set yet: every hour flat, prices to be entered. */
const blank = (): Tariff => ({
  hours: Array.from({ length: 24 }, () => 'flat'),
  prices: { peak: 0, flat: 0, valley: 0 },
  currency: 'CNY',
});

/**
 * The tariff page: an organisation's time-of-use tariff (which hour is peak, flat or valley, and
 * each period's price per kWh) as a draft the user edits and saves. Made by the page.
 */
export class TariffStore {
  orgs: Array<{ id: number; name: string }> = [];
  orgId: number | null = null;
  draft: Tariff = blank();
  /** Whether the organisation has a tariff; null while its answer is on the way. */
  saved: boolean | null = null;
  /** Prices as typed, so an emptied field stays empty until it is valid again. */
  priceText: Record<TariffPeriod, string> = { peak: '0', flat: '0', valley: '0' };

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  async loadOrgs(): Promise<void> {
    const orgs = await this.api.get('/org/listAll', { schema: orgsSchema });
    runInAction(() => (this.orgs = orgs));
    if (this.orgId === null && orgs[0]) await this.choose(orgs[0].id);
  }

  async choose(orgId: number): Promise<void> {
    this.orgId = orgId;
    this.saved = null;
    const { tariff } = await this.api.get(`/production/tariff?orgId=${orgId}`, {
      schema: tariffAnswerSchema,
    });
    runInAction(() => {
      if (this.orgId !== orgId) return;
      this.draft = tariff ?? blank();
      this.saved = tariff !== null;
      for (const p of TARIFF_PERIODS) this.priceText[p] = String(this.draft.prices[p]);
    });
  }

  setHour(hour: number, period: TariffPeriod): void {
    this.draft.hours[hour] = period;
  }

  setCurrency(currency: TariffCurrency): void {
    this.draft.currency = currency;
  }

  setPrice(period: TariffPeriod, text: string): void {
    this.priceText[period] = text;
    const value = Number(text);
    if (text.trim() !== '' && Number.isFinite(value)) this.draft.prices[period] = value;
  }

  /** Periods whose price field is empty or not a number of 0–100: the page marks them. */
  get invalidPrices(): TariffPeriod[] {
    return TARIFF_PERIODS.filter((p) => {
      const text = this.priceText[p].trim();
      const value = Number(text);
      return text === '' || !Number.isFinite(value) || value < 0 || value > 100;
    });
  }

  async save(): Promise<void> {
    if (this.orgId === null) return;
    await this.api.put('/production/tariff', {
      body: { orgId: this.orgId, ...this.draft },
      schema: savedSchema,
    });
    runInAction(() => (this.saved = true));
  }
}
