/** Run modes of a house controller, code → key. Any other code is `undefined`. */
export const RUN_MODES = {
  1: 'smart',
  2: 'hand',
  10: 'minimumVentilation',
  11: 'transverse',
  12: 'transition',
  13: 'tunnel',
  99: 'empty',
  97: 'error',
  98: 'externalStop',
} as const;
export type RunModeKey = (typeof RUN_MODES)[keyof typeof RUN_MODES] | 'undefined';

export function runModeKey(code: number | null | undefined): RunModeKey {
  if (code == null) return 'undefined';
  return (RUN_MODES as Record<number, RunModeKey>)[code] ?? 'undefined';
}

/** House status filter of the house overview. */
export const HOUSE_STATUS_FILTERS = [
  'all',
  'offline',
  'online',
  'alarm',
  'empty',
  'normal',
] as const;
export type HouseStatusFilter = (typeof HOUSE_STATUS_FILTERS)[number];

/** Levels of the farm tree (group, company, farm). */
export const FARM_LEVELS = ['group', 'company', 'farm'] as const;
export type FarmLevel = (typeof FARM_LEVELS)[number];

/** Organisation map type: '1' China (the default), '2' World. */
export const MAP_TYPES = ['1', '2'] as const;
export type MapType = (typeof MAP_TYPES)[number];

/** Operation log sources. */
export const LOG_SOURCES = ['computer', 'mobile', 'other'] as const;
export type LogSource = (typeof LOG_SOURCES)[number];

/** Whether the runtime knows `zone` as an IANA time zone (Node, browsers and PostgreSQL share the names). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
