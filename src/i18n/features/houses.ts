import { type TextTree } from '../textTree';

/**
 * House status pages: home dashboard, overview, monitor, comparison, trends, exports. English defines the keys; Chinese must match (its type refuses a missing or unknown
 * key, and tests/i18n lists any difference). Used as `t('houses.…')`.
 */
export const housesEn = {} as const;

export const housesZh: TextTree<typeof housesEn> = {};
