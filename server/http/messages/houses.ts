import type { Locale } from '../../../src/contract/envelope';

/** Server messages of this feature, both languages; keys are prefixed `houses.`. */
export const HOUSES_MESSAGES = {
  'houses.compareNone': {
    en: 'Choose at least one house to compare.',
    zh: '请至少选择一个栏舍进行对比。',
  },
  'houses.compareTooMany': {
    en: 'At most 6 houses can be compared.',
    zh: '最多只能对比 6 个栏舍。',
  },
  'houses.notFound': { en: 'There is no such house.', zh: '栏舍不存在。' },
  'houses.completenessBadDay': {
    en: 'A day is written as YYYY-MM-DD.',
    zh: '日期格式应为 YYYY-MM-DD。',
  },
  'houses.completenessTooLong': {
    en: 'Completeness can be shown for at most 62 days at a time.',
    zh: '数据完整率一次最多显示 62 天。',
  },
  'houses.noData': { en: 'No data has been found', zh: '没有找到数据' },
  'houses.exportFailed': { en: 'File export failed', zh: '文件导出失败' },
} as const satisfies Record<string, Record<Locale, string>>;
