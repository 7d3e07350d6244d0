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
  'notify.prefsSaved': { en: 'Notification preferences saved.', zh: '通知偏好已保存。' },
  'notify.timeInvalid': { en: 'Write times as HH:MM.', zh: '时间格式应为 HH:MM。' },
  'notify.severityRequired': {
    en: 'Choose at least one severity.',
    zh: '请至少选择一个报警级别。',
  },
  'notify.channelRequired': { en: 'Choose at least one channel.', zh: '请至少选择一种通知方式。' },
  'notify.quietBoth': {
    en: 'Quiet hours need both a start and an end.',
    zh: '免打扰时段需要同时填写开始和结束时间。',
  },
  'notify.quietEmpty': {
    en: 'Quiet hours must not start and end at the same time.',
    zh: '免打扰时段的开始和结束时间不能相同。',
  },
  'notify.drillStarted': { en: 'Alarm drill started.', zh: '报警演练已发起。' },
  'notify.drillNobody': {
    en: 'No open alarm phone entry covers this house: nobody to drill.',
    zh: '没有覆盖该栏舍的启用报警电话，无法演练。',
  },
  'notify.drillScheduled': { en: 'Weekly drill saved.', zh: '每周演练已保存。' },
  'notify.drillConfirmed': { en: 'Drill confirmed. Thank you.', zh: '演练已确认，谢谢。' },
  'notify.receiptUnknown': {
    en: 'No message Roost sent has this id.',
    zh: '没有与此编号对应的已发送消息。',
  },
} as const satisfies Record<string, Record<Locale, string>>;
