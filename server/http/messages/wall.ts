import type { Locale } from '../../../src/contract/envelope';

/** Server messages of this feature, both languages; keys are prefixed `wall.`. */
export const WALL_MESSAGES = {
  'wall.badTimeZone': {
    en: 'This time zone is unknown: use a name such as Asia/Shanghai.',
    zh: '未知的时区：请使用如 Asia/Shanghai 的时区名称。',
  },
  'wall.farmNotFound': { en: 'This farm does not exist.', zh: '该养殖场不存在。' },
  'wall.kioskNameRequired': { en: 'Enter a name for the link.', zh: '请输入链接名称。' },
  'wall.kioskScopeRequired': {
    en: 'Choose every farm or at least one farm.',
    zh: '请选择全部养殖场或至少一个养殖场。',
  },
  'wall.kioskFarmUnknown': {
    en: 'One of the chosen farms does not exist.',
    zh: '所选养殖场中有不存在的养殖场。',
  },
  'wall.kioskNotFound': {
    en: 'This kiosk link does not exist or was already revoked.',
    zh: '该展示链接不存在或已被撤销。',
  },
  'wall.kioskCreated': { en: 'Kiosk link created.', zh: '展示链接已创建。' },
  'wall.kioskRevoked': { en: 'Kiosk link revoked.', zh: '展示链接已撤销。' },
  'wall.kioskEnded': {
    en: 'This kiosk link was revoked or does not exist.',
    zh: '该展示链接已被撤销或不存在。',
  },
} as const satisfies Record<string, Record<Locale, string>>;
