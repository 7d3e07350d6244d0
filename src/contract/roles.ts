/** Role keys, highest first. */
export const ROLE_KEYS = [
  'administrator',
  'company_manager',
  'area_manager',
  'farm_manager',
  'shack_manager',
] as const;
export type RoleKey = (typeof ROLE_KEYS)[number];

/** Each role's name, kept once: the console's texts and the operation log both read it. */
export const ROLE_NAMES = {
  en: {
    administrator: 'Administrator',
    company_manager: 'Company manager',
    area_manager: 'Area manager',
    farm_manager: 'Farm manager',
    shack_manager: 'House manager',
  },
  zh: {
    administrator: '管理员',
    company_manager: '公司管理员',
    area_manager: '区域管理员',
    farm_manager: '场区管理员',
    shack_manager: '栏舍管理员',
  },
} as const satisfies Record<'en' | 'zh', Record<RoleKey, string>>;

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
