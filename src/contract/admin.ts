import { z } from 'zod';
import { idSchema } from './ids';
import { FARM_LEVELS, LOG_SOURCES, MAP_TYPES } from './domain';
import { pageQuerySchema } from './envelope';
import { isGatewayTypeKey } from './gatewayTypes';
import { ROLE_KEYS } from './roles';

/** Payloads of system management and the operation log. Every input passes these. */

/** A logo is a PNG of at most 2 MB. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
/** The operation log export warns above this many rows. */
export const EXPORT_WARN_ROWS = 15_000;
/** A single export is cut here, so one click cannot build a file the server cannot hold. */
export const EXPORT_MAX_ROWS = 100_000;

const text = (max: number) => z.string().trim().max(max).default('');
const name = (max = 64) => z.string().trim().min(1, 'admin.nameRequired').max(max);
const id = idSchema;
const optionalId = idSchema.optional();

export const idBodySchema = z.object({ id });

type Patch<T extends z.ZodRawShape> = {
  [K in keyof T]: z.ZodOptional<T[K] extends z.ZodDefault<infer Inner> ? Inner : T[K]>;
};

/**
 * An update's schema made from the create schema: every field optional and without its
 * default, and the id required, so a field the caller did not send keeps its stored value
 * instead of becoming the default.
 */
function patchOf<T extends z.ZodRawShape>(schema: z.ZodObject<T>) {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [
      key,
      ((field instanceof z.ZodDefault ? field.unwrap() : field) as z.ZodType).optional(),
    ]),
  ) as unknown as Patch<T>;
  return z.object(shape).extend({ id });
}
export type IdBody = z.infer<typeof idBodySchema>;

// ---------------------------------------------------------------- organisations

export const orgListQuerySchema = pageQuerySchema.extend({ keyword: text(64) });

export const orgInputSchema = z.object({
  id: optionalId,
  name: name(),
  code: z.string().trim().min(1, 'admin.codeRequired').max(32),
  principal: text(64),
  officeTel: text(32),
  mobile: text(32),
  fax: text(32),
  email: z.union([z.literal(''), z.email('admin.emailInvalid').max(128)]).default(''),
  remark: text(500),
  mapType: z.enum(MAP_TYPES).default('1'),
});
export type OrgInput = z.input<typeof orgInputSchema>;
export const orgPatchSchema = patchOf(orgInputSchema);

export interface OrgRow {
  id: number;
  name: string;
  code: string;
  principal: string;
  officeTel: string;
  mobile: string;
  fax: string;
  email: string;
  remark: string;
  mapType: '1' | '2';
  hasLogo: boolean;
  createdAt: string;
}

// ---------------------------------------------------------------- users

export const userListQuerySchema = pageQuerySchema.extend({
  keyword: text(64),
  roleKey: z.enum(ROLE_KEYS).optional(),
  orgId: optionalId,
});

const flag = z
  .union([z.boolean(), z.enum(['1', '0'])])
  .transform((v) => v === true || v === '1')
  .default(false);

/** POST /user/save: creates without `id` (then `password` is required), updates with it. */
export const userSaveSchema = z.object({
  id: optionalId,
  username: z
    .string()
    .trim()
    .min(1, 'admin.usernameRequired')
    .max(64)
    .regex(/^[\w.@-]+$/, 'admin.usernameInvalid'),
  password: z.string().max(256).optional(),
  realName: text(64),
  department: text(64),
  position: text(64),
  officeTel: text(32),
  mobile: text(32),
  email: z.union([z.literal(''), z.email('admin.emailInvalid').max(128)]).default(''),
  roleKey: z.enum(ROLE_KEYS, 'admin.roleInvalid'),
  canOperate: flag,
  remoteConfigFlag: flag,
  orgId: optionalId,
  /** company_manager: its company node. */
  scopeNodeId: optionalId,
  /** area_manager / farm_manager: the farms (or company nodes) it looks after. */
  farmIds: z.array(id).max(500).default([]),
  /** shack_manager: its houses (also settable later with /user/saveUserShacks). */
  shackIds: z.array(id).max(1000).default([]),
});
export type UserSaveInput = z.input<typeof userSaveSchema>;

export const saveUserShacksSchema = z.object({
  id,
  roleKey: z.literal('shack_manager', 'admin.roleInvalid'),
  shackIds: z.array(id).max(1000),
});

export const searchByShackQuerySchema = z.object({ shackId: id });

export interface UserRow {
  id: number;
  username: string;
  realName: string;
  department: string;
  position: string;
  officeTel: string;
  mobile: string;
  email: string;
  roleKey: (typeof ROLE_KEYS)[number];
  canOperate: '1' | '0';
  remoteConfigFlag: '1' | '0';
  orgId: number | null;
  orgName: string;
  scopeNodeId: number | null;
  farmIds: number[];
  shackIds: number[];
  lastLoginAt: string | null;
  loginCount: number;
}

/** GET /user/assignable: what the caller may give in the user form. */
export interface AssignableOptions {
  roles: Array<(typeof ROLE_KEYS)[number]>;
  companies: Array<{ id: number; name: string }>;
  farms: Array<{ id: number; name: string }>;
  houses: Array<{ id: number; name: string }>;
}

export interface ResetPasswordResult {
  /** Shown once; the server keeps only its hash. */
  password: string;
}

// ---------------------------------------------------------------- farms, houses, gateways

const longitude = z.coerce.number().min(-180, 'admin.coordinates').max(180, 'admin.coordinates');
const latitude = z.coerce.number().min(-90, 'admin.coordinates').max(90, 'admin.coordinates');

export const farmInputSchema = z.object({
  id: optionalId,
  orgId: optionalId,
  parentId: optionalId,
  level: z.enum(FARM_LEVELS, 'admin.levelInvalid'),
  name: name(),
  type: text(32),
  provinceAdcode: z
    .string()
    .regex(/^\d{6}$/, 'admin.provinceInvalid')
    .optional(),
  provinceName: text(32),
  longitude: longitude.nullable().optional(),
  latitude: latitude.nullable().optional(),
  address: text(200),
});
export type FarmInput = z.input<typeof farmInputSchema>;

export interface FarmNode {
  id: number;
  orgId: number;
  parentId: number | null;
  level: (typeof FARM_LEVELS)[number];
  name: string;
  type: string;
  provinceAdcode: string | null;
  provinceName: string | null;
  longitude: number | null;
  latitude: number | null;
  address: string;
  houseCount: number;
  children: FarmNode[];
}

export const houseInputSchema = z.object({
  id: optionalId,
  farmId: id,
  name: name(),
  sort: z.coerce.number().int().min(0).max(10_000).default(0),
});

export const houseListQuerySchema = z.object({ farmId: id });

export const gatewayInputSchema = z.object({
  id: optionalId,
  houseId: id,
  networkId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{3,32}$/, 'admin.networkIdInvalid'),
  typeKey: z.coerce
    .number()
    .int()
    .refine((v) => isGatewayTypeKey(v), 'admin.gatewayTypeInvalid'),
  number: text(64),
  version: text(32),
  simCard: text(32),
  intervalSeconds: z.coerce.number().int().min(5).max(3600).default(60),
});
export type GatewayInput = z.input<typeof gatewayInputSchema>;

const isoDate = z.iso.date('admin.dateInvalid');

export const flockStartSchema = z.object({
  houseId: id,
  breedId: optionalId,
  placedOn: isoDate,
  ageAtPlacement: z.coerce.number().int().min(0).max(1000).default(1),
  headCount: z.coerce.number().int().min(1, 'admin.headCountInvalid').max(10_000_000),
});
export const flockCloseSchema = z.object({ houseId: id, closedOn: isoDate });

export interface HouseRow {
  id: number;
  farmId: number;
  name: string;
  sort: number;
  gateway: {
    id: number;
    networkId: string;
    typeKey: number;
    number: string;
    version: string;
    simCard: string;
    intervalSeconds: number;
  } | null;
  flock: {
    id: number;
    breedId: number | null;
    breedName: string;
    placedOn: string;
    ageAtPlacement: number;
    headCount: number;
  } | null;
}

export interface GatewayTokenResult {
  id: number;
  networkId: string;
  /** The device token, shown once; only its hash is stored. */
  token: string;
}

// ---------------------------------------------------------------- breeds

export const breedListQuerySchema = pageQuerySchema.extend({ keyword: text(64) });

export const breedInputSchema = z.object({
  id: optionalId,
  name: name(),
  code: z.string().trim().min(1, 'admin.codeRequired').max(32),
  factory: text(64),
  description: text(500),
});

/** The per-age grid's columns, in the order of the original "breed config per age" grid. */
export const BREED_TARGET_FIELDS = [
  'temperature',
  'humidity',
  'co2',
  'lightHours',
  'lightIntensity',
  'waterPerHead',
  'weight',
  'feedPerHead',
  'eggWeight',
  'layingRate',
  'survivalRate',
] as const;
export type BreedTargetField = (typeof BREED_TARGET_FIELDS)[number];

const cell = z.number().finite().min(-1000).max(100_000).nullable().default(null);
export const breedTargetRowSchema = z.object({
  ageDay: z.number().int().min(0).max(1000),
  temperature: cell,
  humidity: cell,
  co2: cell,
  lightHours: cell,
  lightIntensity: cell,
  waterPerHead: cell,
  weight: cell,
  feedPerHead: cell,
  eggWeight: cell,
  layingRate: cell,
  survivalRate: cell,
});
export type BreedTargetRow = z.infer<typeof breedTargetRowSchema>;

export const breedTargetsSchema = z.object({
  breedId: id,
  rows: z
    .array(breedTargetRowSchema)
    .max(1001)
    .refine((rows) => new Set(rows.map((r) => r.ageDay)).size === rows.length, 'admin.ageRepeated'),
});

export const immuneRemindersSchema = z.object({
  breedId: id,
  rows: z
    .array(
      z.object({
        ageDay: z.number().int().min(0).max(1000),
        content: z.string().trim().min(1, 'admin.contentRequired').max(200),
      }),
    )
    .max(200),
});

export interface BreedRow {
  id: number;
  orgId: number | null;
  name: string;
  code: string;
  factory: string;
  description: string;
  isCommon: boolean;
  operator: string;
  createdAt: string;
}

export interface BreedDetail extends BreedRow {
  targets: BreedTargetRow[];
  immune: Array<{ ageDay: number; content: string }>;
}

// ---------------------------------------------------------------- operation log

export const logQuerySchema = pageQuerySchema.extend({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  operator: text(64),
  function: text(64),
  house: text(64),
  source: z.enum(LOG_SOURCES).optional(),
});
export type LogQuery = z.input<typeof logQuerySchema>;

export const logExportQuerySchema = logQuerySchema.extend({
  format: z.enum(['csv', 'xlsx']).default('csv'),
  /** '1' once the user has seen the warning for more than EXPORT_WARN_ROWS rows. */
  confirm: z.literal('1').optional(),
});

/**
 * One operation-log entry as `/log/list` answers it: `function` and `operation` are keys and
 * `params` the operation's parameters (src/contract/operationLog.ts renders them in a language).
 */
export const logRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  operatorName: z.string(),
  function: z.string(),
  houseName: z.string(),
  operation: z.string(),
  params: z.record(z.string(), z.unknown()),
  remark: z.string(),
  source: z.string(),
  networkId: z.string(),
});
export type LogRow = z.infer<typeof logRowSchema>;

/** The operation log's columns, in order: the console's table and the exported files. */
export const LOG_COLUMNS = [
  'at',
  'operator',
  'function',
  'house',
  'operation',
  'remark',
  'source',
  'networkId',
] as const;

/** GET /org/getLogo: an administrator may name the organisation; everyone else gets its own. */
export const logoQuerySchema = z.object({ id: optionalId });
