import type { Locale } from '../../../src/contract/envelope';

/** Server messages of this feature, both languages; keys are prefixed `admin.`. */
export const ADMIN_MESSAGES = {} as const satisfies Record<string, Record<Locale, string>>;
