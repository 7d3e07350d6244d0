import { z } from 'zod';
import {
  BREED_TARGET_FIELDS,
  type AssignableOptions,
  type BreedDetail,
  type BreedRow,
  type FarmNode,
  type GatewayTokenResult,
  type HouseRow,
  type OrgRow,
  type ResetPasswordResult,
  type UserRow,
} from './admin';
import {
  ALARM_DATE_TYPES,
  ALARM_NOTICE_TYPES,
  ALARM_PHONE_STATUSES,
  ALARM_PHONE_TYPES,
  RELAY_TYPES,
  type AlarmInputSetting,
  type AlarmPhone,
  type DeleteResult,
} from './alarms';
import { FARM_LEVELS } from './domain';
import { pagedSchema } from './paged';
import { ROLE_KEYS } from './roles';

/**
 * What the server answers to system management and alarm settings. The browser parses every
 * answer with these before a page shows it, so a server that drifts from the shapes in
 * admin.ts / alarms.ts fails loudly at the edge instead of rendering `undefined`. Each schema
 * is checked against its interface (`satisfies`), so the two cannot silently part.
 */

const id = z.number().int().positive();
const isoTime = z.string().min(1);

/** Answers that carry nothing (deletes, saves that return no row). */
export const emptyAnswerSchema = z.null();
/** Saves that answer the id of what they created or changed. */
export const idAnswerSchema = z.object({ id });
export type IdAnswer = z.infer<typeof idAnswerSchema>;

/** An `{ id, name }` choice of a select (organisations, companies, farms, houses). */
export const namedSchema = z.object({ id, name: z.string() });
export type Named = z.infer<typeof namedSchema>;

// ---------------------------------------------------------------- organisations

export const orgRowSchema = z.object({
  id,
  name: z.string(),
  code: z.string(),
  principal: z.string(),
  officeTel: z.string(),
  mobile: z.string(),
  fax: z.string(),
  email: z.string(),
  remark: z.string(),
  mapType: z.enum(['1', '2']),
  hasLogo: z.boolean(),
  createdAt: isoTime,
}) satisfies z.ZodType<OrgRow>;

export const orgListAllSchema = z.array(namedSchema);

// ---------------------------------------------------------------- users

export const userRowSchema = z.object({
  id,
  username: z.string(),
  realName: z.string(),
  department: z.string(),
  position: z.string(),
  officeTel: z.string(),
  mobile: z.string(),
  email: z.string(),
  roleKey: z.enum(ROLE_KEYS),
  canOperate: z.enum(['1', '0']),
  remoteConfigFlag: z.enum(['1', '0']),
  orgId: id.nullable(),
  orgName: z.string(),
  scopeNodeId: id.nullable(),
  farmIds: z.array(id),
  shackIds: z.array(id),
  lastLoginAt: isoTime.nullable(),
  loginCount: z.number().int().min(0),
}) satisfies z.ZodType<UserRow>;

export const assignableOptionsSchema = z.object({
  roles: z.array(z.enum(ROLE_KEYS)),
  companies: z.array(namedSchema),
  farms: z.array(namedSchema),
  houses: z.array(namedSchema),
}) satisfies z.ZodType<AssignableOptions>;

export const resetPasswordSchema = z.object({
  password: z.string().min(1),
}) satisfies z.ZodType<ResetPasswordResult>;

// ---------------------------------------------------------------- farms, houses, gateways

const farmNodeBase = z.object({
  id,
  orgId: id,
  parentId: id.nullable(),
  level: z.enum(FARM_LEVELS),
  name: z.string(),
  type: z.string(),
  provinceAdcode: z.string().nullable(),
  provinceName: z.string().nullable(),
  longitude: z.number().nullable(),
  latitude: z.number().nullable(),
  address: z.string(),
  houseCount: z.number().int().min(0),
});
// The tree nests itself: a getter lets zod refer to the schema being defined.
export const farmNodeSchema: z.ZodType<FarmNode> = farmNodeBase.extend({
  get children() {
    return z.array(farmNodeSchema);
  },
});
export const farmTreeSchema = z.array(farmNodeSchema);

export const houseRowSchema = z.object({
  id,
  farmId: id,
  name: z.string(),
  sort: z.number().int(),
  gateway: z
    .object({
      id,
      networkId: z.string(),
      typeKey: z.number().int(),
      number: z.string(),
      version: z.string(),
      simCard: z.string(),
      intervalSeconds: z.number().int(),
    })
    .nullable(),
  flock: z
    .object({
      id,
      breedId: id.nullable(),
      breedName: z.string(),
      placedOn: z.string(),
      ageAtPlacement: z.number().int(),
      headCount: z.number().int(),
    })
    .nullable(),
}) satisfies z.ZodType<HouseRow>;
export const houseListSchema = pagedSchema(houseRowSchema);

export const gatewayTokenSchema = z.object({
  id,
  networkId: z.string(),
  token: z.string().min(1),
}) satisfies z.ZodType<GatewayTokenResult>;
/** /gateway/save: a new gateway answers its token (once); an update only its id and network id. */
export const gatewaySavedSchema = z.union([
  gatewayTokenSchema,
  z.object({ id, networkId: z.string() }),
]);
export type GatewaySaved = z.infer<typeof gatewaySavedSchema>;

// ---------------------------------------------------------------- breeds

export const breedRowSchema = z.object({
  id,
  orgId: id.nullable(),
  name: z.string(),
  code: z.string(),
  factory: z.string(),
  description: z.string(),
  isCommon: z.boolean(),
  operator: z.string(),
  createdAt: isoTime,
}) satisfies z.ZodType<BreedRow>;

const targetCell = z.number().nullable();
const targetCells = Object.fromEntries(BREED_TARGET_FIELDS.map((f) => [f, targetCell])) as Record<
  (typeof BREED_TARGET_FIELDS)[number],
  typeof targetCell
>;
export const breedDetailSchema = breedRowSchema.extend({
  targets: z.array(z.object({ ageDay: z.number().int(), ...targetCells })),
  immune: z.array(z.object({ ageDay: z.number().int(), content: z.string() })),
}) satisfies z.ZodType<BreedDetail>;

// ---------------------------------------------------------------- alarm settings

export const alarmPhoneSchema = z.object({
  id,
  farmId: id,
  houseId: id.nullable(),
  phone: z.string(),
  period1Start: z.string(),
  period1End: z.string(),
  period2Start: z.string().nullable(),
  period2End: z.string().nullable(),
  dateType: z.enum(ALARM_DATE_TYPES),
  repeatMinutes: z.number().int(),
  closable: z.boolean(),
  alarmType: z.enum(ALARM_PHONE_TYPES),
  delayMinutes: z.number().int(),
  status: z.enum(ALARM_PHONE_STATUSES),
  noticeTypes: z.array(z.enum(ALARM_NOTICE_TYPES)),
  description: z.string(),
  farmName: z.string(),
  houseName: z.string().nullable(),
}) satisfies z.ZodType<AlarmPhone>;

export const alarmInputSettingSchema = z.object({
  id,
  gatewayId: id,
  diCode: z.string(),
  content: z.string(),
  horn: z.boolean(),
  shieldTest: z.boolean(),
  relayType: z.enum(RELAY_TYPES),
  important: z.boolean(),
  networkId: z.string(),
  houseName: z.string().nullable(),
}) satisfies z.ZodType<AlarmInputSetting>;

export const deleteResultSchema = z.object({
  remaining: z.number().int().min(0),
}) satisfies z.ZodType<DeleteResult>;

// ---------------------------------------------------------------- organisation logos

/** GET /org/getLogo: the PNG as base64, '' when the organisation has none. */
export const orgLogoSchema = z.string();
/** POST /org/uploadLogo: the size of the logo kept. */
export const logoUploadedSchema = z.object({ bytes: z.number().int().positive() });
