import { type TextTree } from '../textTree';

/**
 * The alarm overview wall screen (screenDatav/home). English defines the keys; Chinese must match (its type refuses a missing or unknown
 * key, and tests/i18n lists any difference). Used as `t('wall.…')`.
 */
export const wallEn = {} as const;

export const wallZh: TextTree<typeof wallEn> = {};
