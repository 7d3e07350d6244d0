import { type TextTree } from '../textTree';

/** The acknowledge link's page (`/ack/<token>`), opened from an SMS, e-mail or robot message. */
export const notifyEn = {
  ack: {
    title: 'Alarm',
    severity: { critical: 'Critical', major: 'Major', minor: 'Minor' },
    value: 'Reading {{value}} (limit {{limit}})',
    raisedAt: 'Raised {{time}}',
    comment: 'Comment (optional)',
    commentPlaceholder: 'What you are doing about it',
    acknowledge: 'Acknowledge',
    acknowledged: 'Acknowledged by {{who}} at {{time}}',
    cleared: 'This alarm has cleared.',
    expires: 'This link works until {{time}}.',
    refused: 'This link cannot be used',
    loading: 'Opening the alarm…',
  },
};

export const notifyZh: TextTree<typeof notifyEn> = {
  ack: {
    title: '报警',
    severity: { critical: '紧急', major: '重要', minor: '一般' },
    value: '读数 {{value}}（限值 {{limit}}）',
    raisedAt: '发生于 {{time}}',
    comment: '备注（可选）',
    commentPlaceholder: '您正在采取的措施',
    acknowledge: '确认报警',
    acknowledged: '已由 {{who}} 于 {{time}} 确认',
    cleared: '该报警已清除。',
    expires: '此链接有效期至 {{time}}。',
    refused: '此链接无法使用',
    loading: '正在打开报警……',
  },
};
