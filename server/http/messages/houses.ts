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
  'houses.noData': { en: 'No data has been found', zh: '没有找到数据' },
  'houses.exportFailed': { en: 'File export failed', zh: '文件导出失败' },
} as const satisfies Record<string, Record<Locale, string>>;
