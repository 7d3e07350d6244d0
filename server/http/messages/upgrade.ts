/** Server messages of gateway upgrades, both languages; keys are prefixed `upgrade.`. */
export const UPGRADE_MESSAGES = {
  'upgrade.fileMissing': { en: 'Choose an upgrade file.', zh: '请选择升级文件。' },
  'upgrade.fileEmpty': { en: 'The upgrade file is empty.', zh: '升级文件为空。' },
  'upgrade.fileTooLarge': {
    en: 'The upgrade file is larger than 5 MB.',
    zh: '升级文件不能超过 5MB。',
  },
  'upgrade.versionMissing': { en: 'Enter the version of the file.', zh: '请输入文件版本。' },
  'upgrade.versionInvalid': {
    en: 'The version may hold letters, digits, dots, dashes and underscores (at most 32).',
    zh: '版本只能包含字母、数字、点、横线和下划线（最多 32 个字符）。',
  },
  'upgrade.saved': { en: 'Upgrade file saved.', zh: '升级文件已保存。' },
} as const;
