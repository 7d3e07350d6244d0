import type { Locale } from '../../../src/contract/envelope';

/** Server messages of this feature, both languages; keys are prefixed `alarms.`. */
export const ALARMS_MESSAGES = {
  'alarms.acknowledged': { en: 'Alarm acknowledged.', zh: '报警已确认。' },
  'alarms.cleared': { en: 'Alarm cleared.', zh: '报警已清除。' },
  'alarms.notFound': { en: 'There is no such alarm.', zh: '报警不存在。' },
  'alarms.notActive': {
    en: 'This alarm is no longer active.',
    zh: '该报警已不是活动状态。',
  },
  'alarms.notOpen': { en: 'This alarm is already cleared.', zh: '该报警已清除。' },
  'alarms.notClearable': {
    en: 'This alarm clears by itself when its condition ends.',
    zh: '该报警在条件恢复后自动清除，不能手动清除。',
  },
  'alarms.badTime': { en: 'Enter times as HH:MM.', zh: '请按 HH:MM 输入时间。' },
  'alarms.badPhone': { en: 'The phone number is not valid.', zh: '电话号码无效。' },
  'alarms.saved': { en: 'Saved.', zh: '保存成功。' },
  'alarms.deleted': { en: 'Deleted.', zh: '删除成功。' },
  'alarms.duplicateInput': {
    en: 'This gateway already has an alarm input with this DI code.',
    zh: '该网关已存在此 DI 编码的报警输入。',
  },
} as const satisfies Record<string, Record<Locale, string>>;
