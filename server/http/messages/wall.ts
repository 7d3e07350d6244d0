import type { Locale } from '../../../src/contract/envelope';

/** Server messages of this feature, both languages; keys are prefixed `wall.`. */
export const WALL_MESSAGES = {} as const satisfies Record<string, Record<Locale, string>>;
