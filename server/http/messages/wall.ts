import type { Locale } from '../../../src/contract/envelope';

/** Server messages of this feature, both languages; keys are prefixed `wall.`. */
export const WALL_MESSAGES = {
  'wall.farmNotFound': { en: 'This farm does not exist.', zh: '该养殖场不存在。' },
} as const satisfies Record<string, Record<Locale, string>>;
