import { type TextTree } from '../textTree';

/**
 * The day's reminders (home page, house monitor): the kinds and the panel. Each reminder's own
 * text lives with its feature (`alarms.reminder.…`). English defines the keys; Chinese must match.
 */
export const remindersEn = {
  title: "Today's reminders",
  none: 'Nothing to be reminded of today',
  overdue: 'Overdue',
  more: '{{count}} more',
  kind: {
    alarm: 'House alarms',
    task: 'Daily tasks',
    deviceExpiry: 'Device maintenance',
    paramChange: 'Parameter changes',
    completeness: 'Data completeness',
  },
};

export const remindersZh: TextTree<typeof remindersEn> = {
  title: '今日提醒',
  none: '今天没有需要提醒的事项',
  overdue: '已逾期',
  more: '还有 {{count}} 条',
  kind: {
    alarm: '栏舍报警',
    task: '日常任务',
    deviceExpiry: '设备维护',
    paramChange: '参数变更',
    completeness: '数据完整率',
  },
};
