/** Role keys, highest first. */
export const ROLE_KEYS = [
  'administrator',
  'company_manager',
  'area_manager',
  'farm_manager',
  'shack_manager',
] as const;
export type RoleKey = (typeof ROLE_KEYS)[number];

/** Lower rank = more power. A manager may only create or change users of a higher rank number. */
export const ROLE_RANK: Record<RoleKey, number> = {
  administrator: 0,
  company_manager: 1,
  area_manager: 2,
  farm_manager: 3,
  shack_manager: 4,
};

export function isRoleKey(value: unknown): value is RoleKey {
  return typeof value === 'string' && (ROLE_KEYS as readonly string[]).includes(value);
}
