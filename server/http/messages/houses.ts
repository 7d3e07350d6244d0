import type { Locale } from '../../../src/contract/envelope';

/** Server messages of this feature, both languages; keys are prefixed `houses.`. */
export const HOUSES_MESSAGES = {} as const satisfies Record<string, Record<Locale, string>>;
