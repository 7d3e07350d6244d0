import { type TextTree } from '../textTree';

/**
 * What every console form shares: the date input (src/console/forms/DateInput.tsx), the question
 * before a save (src/console/useConfirmSave.tsx), the dialog's buttons and the fields' problems
 * (src/console/forms). English defines the keys; Chinese must match.
 */
export const formsEn = {
  date: {
    pick: 'Choose a date',
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    invalid: 'Type the date as {{form}}',
  },
  time: { invalid: 'Type the time on the 24-hour clock, as 22:00' },
  confirmSave: {
    title: 'Save the changes?',
    text: 'The changes replace what is stored now and take effect at once.',
    textNamed: 'The changes to {{name}} replace what is stored now and take effect at once.',
    confirm: 'Save',
    cancel: 'Cancel',
  },
  /** Before a new entry is stored: it replaces nothing. */
  confirmAdd: {
    title: 'Add this entry?',
    text: 'It is stored and takes effect at once.',
    confirm: 'Add',
  },
  action: { save: 'Save', cancel: 'Cancel' },
  /** A field's problem where the contract's schema has no message of its own. */
  error: {
    required: 'Fill this in',
    tooLong: 'This is too long',
    invalid: 'This is not valid',
  },
};

export const formsZh: TextTree<typeof formsEn> = {
  date: {
    pick: '选择日期',
    previousMonth: '上个月',
    nextMonth: '下个月',
    invalid: '请按 {{form}} 输入日期',
  },
  time: { invalid: '请按 24 小时制输入时间，如 22:00' },
  confirmSave: {
    title: '确定保存修改吗？',
    text: '修改将替换当前保存的内容并立即生效。',
    textNamed: '对 {{name}} 的修改将替换当前保存的内容并立即生效。',
    confirm: '保存',
    cancel: '取消',
  },
  confirmAdd: {
    title: '确定新增吗？',
    text: '新增后立即保存并生效。',
    confirm: '新增',
  },
  action: { save: '保存', cancel: '取消' },
  error: {
    required: '请填写此项',
    tooLong: '内容过长',
    invalid: '此项无效',
  },
};
