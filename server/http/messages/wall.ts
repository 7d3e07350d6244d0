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
  'wall.kioskLayoutSaved': { en: 'Panels and tour saved.', zh: '面板与轮播已保存。' },
  'wall.kioskOnly': {
    en: 'Only a kiosk link has a wall layout of its own.',
    zh: '只有展示链接才有自己的大屏布局。',
  },
  'wall.layoutPanelUnknown': { en: 'This panel does not exist.', zh: '该面板不存在。' },
  'wall.layoutPanelTwice': {
    en: 'A panel can be shown only once.',
    zh: '每个面板只能显示一次。',
  },
  'wall.layoutEmpty': { en: 'Choose at least one panel.', zh: '请至少选择一个面板。' },
  'wall.tourSeconds': {
    en: 'A tour stays 10 to 300 seconds at each stop.',
    zh: '轮播每站停留 10 至 300 秒。',
  },
  'wall.tourStopUnknown': { en: 'This tour stop does not exist.', zh: '该轮播站点不存在。' },
  'wall.tourStopsRequired': {
    en: 'Choose at least one tour stop, or turn the tour off.',
    zh: '请至少选择一个轮播站点，或关闭轮播。',
  },
  'wall.tourStopTwice': { en: 'A tour visits each stop once.', zh: '每个轮播站点只能出现一次。' },
  'wall.tourPanelHidden': {
    en: 'The tour can only show panels the wall shows.',
    zh: '轮播只能展示大屏上已显示的面板。',
  },
} as const satisfies Record<string, Record<Locale, string>>;
