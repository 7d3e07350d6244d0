import type { Locale } from '../../../src/contract/envelope';

/** Server messages of alarm notifications, both languages; keys are prefixed `notify.`. */
export const NOTIFY_MESSAGES = {
  'notify.reasonRequired': { en: 'Say why notifications are silenced.', zh: '请填写静默原因。' },
  'notify.endsBeforeStart': {
    en: 'The end must be after the start.',
    zh: '结束时间必须晚于开始时间。',
  },
  'notify.tooLong': {
    en: 'A silence lasts at most 30 days.',
    zh: '静默最长 30 天。',
  },
  'notify.silenced': { en: 'Notifications silenced.', zh: '已静默通知。' },
  'notify.silenceEnded': { en: 'Silence ended.', zh: '静默已结束。' },
  'notify.notCurrent': {
    en: 'This silence has already ended.',
    zh: '该静默已结束。',
  },
  'notify.linkInvalid': {
    en: 'This acknowledge link is not valid.',
    zh: '该确认链接无效。',
  },
  'notify.linkExpired': {
    en: 'This acknowledge link has expired. Open the alarm in Roost instead.',
    zh: '该确认链接已过期，请在 Roost 中打开报警。',
  },
  'notify.levelSaved': { en: 'Escalation level saved.', zh: '升级级别已保存。' },
} as const satisfies Record<string, Record<Locale, string>>;
