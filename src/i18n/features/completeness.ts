import { type TextTree } from '../textTree';

/** Data completeness (monitor, comparison, reminder), spread into `houses.`: `t('houses.completeness.…')`. */
export const completenessEn = {
  completeness: {
    title: 'Data completeness',
    hint: 'Readings stored out of those the gateway promised (one every {{seconds}} s)',
    noGateway: 'No gateway: nothing is expected.',
    day: 'Day',
    share: 'Complete',
    readings: '{{readings}} of {{expected}}',
    none: '—',
    window: 'Completeness in this window',
  },
  reminder: {
    completeness:
      'Data completeness yesterday {{percent}} % ({{readings}} of {{expected}} readings), below {{min}} %',
  },
} as const;

export const completenessZh: TextTree<typeof completenessEn> = {
  completeness: {
    title: '数据完整率',
    hint: '已收到的数据条数占网关应上报条数的比例（每 {{seconds}} 秒一条）',
    noGateway: '没有网关：无应上报数据。',
    day: '日期',
    share: '完整率',
    readings: '{{readings}} / {{expected}}',
    none: '—',
    window: '本时段数据完整率',
  },
  reminder: {
    completeness: '昨日数据完整率 {{percent}}%（{{readings}} / {{expected}} 条），低于 {{min}}%',
  },
};
