import type { Locale } from '../../src/contract/envelope';
import type { TariffPeriod } from '../../src/contract/production';

/**
 * The headers of Daily Business's files in the reader's language. The server does not import the
 * console's texts (ARCHITECTURE: the server keeps its own messages), so the few words are here.
 */
export const EXPORT_TEXTS: Record<
  Locale,
  {
    kpi: Record<string, string>;
    missing: string;
    power: { hour: string; kwh: string; period: string; price: string; cost: string };
    /** The price and cost headers once a tariff names its currency (`{currency}`). */
    billed: { price: string; cost: string };
    total: string;
    peakKw: string;
    averageKw: string;
    periods: Record<TariffPeriod, string>;
  }
> = {
  en: {
    kpi: {
      day: 'Day',
      ageDay: 'Age (days)',
      alive: 'Alive',
      mortalityPct: 'Mortality (%)',
      livabilityPct: 'Livability (%)',
      bodyWeightG: 'Body weight (g)',
      dailyGainG: 'Daily gain (g)',
      feedPerBirdG: 'Feed per bird (g/day)',
      fcr: 'FCR',
      feedPerEggKg: 'Feed per kg of eggs',
      feedPerDozenKg: 'Feed per dozen eggs (kg)',
      waterL: 'Water (L)',
      waterFeedRatio: 'Water : feed',
      epef: 'EPEF',
      henDayPct: 'Hen-day rate (%)',
      eggMassG: 'Egg mass (g/hen)',
      energyPerBirdKwh: 'Electricity per bird (kWh)',
      standardBodyWeightG: 'Breed standard: body weight (g)',
      standardFeedPerBirdG: 'Breed standard: feed per bird (g/day)',
      standardLivabilityPct: 'Breed standard: livability (%)',
      standardHenDayPct: 'Breed standard: hen-day rate (%)',
      state: 'Entered',
    },
    missing: 'missing',
    power: {
      hour: 'Hour',
      kwh: 'Electricity (kWh)',
      period: 'Period',
      price: 'Price per kWh',
      cost: 'Cost',
    },
    billed: { price: 'Price per kWh ({currency})', cost: 'Cost ({currency})' },
    total: 'Total',
    peakKw: 'Peak (kW)',
    averageKw: 'Average (kW)',
    periods: { peak: 'Peak', flat: 'Flat', valley: 'Valley' },
  },
  zh: {
    kpi: {
      day: '日期',
      ageDay: '日龄',
      alive: '存栏数',
      mortalityPct: '死淘率（%）',
      livabilityPct: '成活率（%）',
      bodyWeightG: '体重（g）',
      dailyGainG: '日增重（g）',
      feedPerBirdG: '只日耗料（g）',
      fcr: '料肉比',
      feedPerEggKg: '料蛋比',
      feedPerDozenKg: '每打蛋耗料（kg）',
      waterL: '饮水（L）',
      waterFeedRatio: '料水比',
      epef: '欧洲效益指数',
      henDayPct: '产蛋率（%）',
      eggMassG: '只日产蛋量（g）',
      energyPerBirdKwh: '只均用电（kWh）',
      standardBodyWeightG: '品种标准：体重（g）',
      standardFeedPerBirdG: '品种标准：只日耗料（g）',
      standardLivabilityPct: '品种标准：成活率（%）',
      standardHenDayPct: '品种标准：产蛋率（%）',
      state: '录入',
    },
    missing: '缺失',
    power: {
      hour: '时段',
      kwh: '用电量（kWh）',
      period: '峰谷',
      price: '电价（每 kWh）',
      cost: '电费',
    },
    billed: { price: '电价（{currency}/kWh）', cost: '电费（{currency}）' },
    total: '合计',
    peakKw: '峰值功率（kW）',
    averageKw: '平均功率（kW）',
    periods: { peak: '峰', flat: '平', valley: '谷' },
  },
};
