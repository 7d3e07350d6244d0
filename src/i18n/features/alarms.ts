import { type TextTree } from '../textTree';

/**
 * Alarms: list, acknowledge, alarm phone and alarm input settings, notifications. English defines the keys; Chinese must match (its type refuses a missing or unknown
 * key, and tests/i18n lists any difference). Used as `t('alarms.…')`.
 */
export const alarmsEn = {} as const;

export const alarmsZh: TextTree<typeof alarmsEn> = {};
