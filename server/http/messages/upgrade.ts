/** Server messages of gateway upgrades, both languages; keys are prefixed `upgrade.`. */
export const UPGRADE_MESSAGES = {
  'upgrade.fileMissing': { en: 'Choose an upgrade file.', zh: '请选择升级文件。' },
  'upgrade.fileEmpty': { en: 'The upgrade file is empty.', zh: '升级文件为空。' },
  'upgrade.fileSuffix': {
    en: 'An upgrade file has no suffix: rename {name} to {bare}.',
    zh: '升级文件不能带后缀：请将 {name} 重命名为 {bare}。',
  },
  'upgrade.fileNameInvalid': {
    en: 'The file name must be 1 to 100 characters, without control characters, / or \\.',
    zh: '文件名须为 1 到 100 个字符，不能包含控制字符、/ 或 \\。',
  },
  'upgrade.fileTooLarge': {
    en: 'The upgrade file is larger than 5 MB.',
    zh: '升级文件不能超过 5MB。',
  },
  'upgrade.versionMissing': { en: 'Enter the version of the file.', zh: '请输入文件版本。' },
  'upgrade.versionInvalid': {
    en: 'The version may hold letters, digits, dots, dashes and underscores (at most 32).',
    zh: '版本只能包含字母、数字、点、横线和下划线（最多 32 个字符）。',
  },
  'upgrade.typeMissing': {
    en: 'Choose the gateway type(s) the file is for.',
    zh: '请选择文件适用的网关类型。',
  },
  'upgrade.typeInvalid': {
    en: 'Unknown gateway type: choose types from the list.',
    zh: '网关类型无效，请从列表中选择。',
  },
  'upgrade.wrongType': {
    en: 'This file is not for the gateway of {house} ({model}).',
    zh: '该文件不适用于{house}的网关（{model}）。',
  },
  'upgrade.saved': { en: 'Upgrade file saved.', zh: '升级文件已保存。' },
  'upgrade.fileNotFound': { en: 'No such upgrade file.', zh: '升级文件不存在。' },
  'upgrade.fileInUse': {
    en: 'Gateways still installing this file: {count}. Delete it once their upgrades have finished.',
    zh: '仍有 {count} 个网关正在安装该文件，请在升级结束后再删除。',
  },
  'upgrade.deleted': { en: 'Upgrade file deleted.', zh: '升级文件已删除。' },
  'upgrade.noUpdates': { en: 'No updates detected.', zh: '未检测到更新。' },
  'upgrade.sent': { en: 'Upgrade sent.', zh: '升级命令已发送。' },
  'upgrade.linkInvalid': { en: 'This download link is not valid.', zh: '下载链接无效。' },
  'upgrade.linkUsed': { en: 'This download link was already used.', zh: '下载链接已使用。' },
  'upgrade.linkExpired': { en: 'This download link has expired.', zh: '下载链接已过期。' },
} as const;
