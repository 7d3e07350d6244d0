import type { Locale } from '../../../src/contract/envelope';

/** Server messages of this feature, both languages; keys are prefixed `alarms.`. */
export const ALARMS_MESSAGES = {} as const satisfies Record<string, Record<Locale, string>>;
