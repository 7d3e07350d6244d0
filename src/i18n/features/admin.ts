import { type TextTree } from '../textTree';

/**
 * System management: organisations, users, farms, houses, gateways, breeds, operation log. English defines the keys; Chinese must match (its type refuses a missing or unknown
 * key, and tests/i18n lists any difference). Used as `t('admin.…')`.
 */
export const adminEn = {} as const;

export const adminZh: TextTree<typeof adminEn> = {};
