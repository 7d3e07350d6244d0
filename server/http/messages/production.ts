import type { Locale } from '../../../src/contract/envelope';

/** Server messages of Daily Business, both languages; keys are prefixed `production.`. */
export const PRODUCTION_MESSAGES = {
  'production.valueRequired': {
    en: 'Value to send must not be empty.',
    zh: '发送的值不能为空。',
  },
  'production.valueInvalid': {
    en: 'A value is not a valid amount.',
    zh: '有数值不是有效的数量。',
  },
  'production.dateInvalid': { en: 'The date is not valid.', zh: '日期无效。' },
  'production.noFlock': {
    en: 'No flock was in {house} on {day}: place a flock first.',
    zh: '{house}在 {day} 没有批次：请先入栏。',
  },
  'production.future': {
    en: 'Days after today cannot be entered.',
    zh: '不能录入今天之后的日期。',
  },
  'production.saved': { en: 'Daily data saved.', zh: '日报数据已保存。' },
  'production.flockNotFound': { en: 'There is no such flock.', zh: '批次不存在。' },
  'production.taskSaved': { en: 'Task saved.', zh: '任务已保存。' },
  'production.taskUnknown': {
    en: "This task is not among the flock's reminders.",
    zh: '该任务不在此批次的提醒中。',
  },
  'production.tariffHours': {
    en: 'Give each of the 24 hours a period.',
    zh: '请为 24 个小时分别选择时段。',
  },
  'production.tariffSaved': { en: 'Tariff saved.', zh: '电价已保存。' },
  'production.noOrganisation': {
    en: 'There is no such organisation.',
    zh: '组织不存在。',
  },
  'production.warningLimitRange': {
    en: 'An early-warning limit is outside its range.',
    zh: '预警限值超出允许范围。',
  },
  'production.warningLimitUnknown': {
    en: 'There is no such early-warning setting.',
    zh: '没有这项预警设置。',
  },
  'production.warningLimitsSaved': { en: 'Early-warning limits saved.', zh: '预警限值已保存。' },
} as const satisfies Record<string, Record<Locale, string>>;
