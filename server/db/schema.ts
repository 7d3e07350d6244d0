import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Key/value state of the installation itself (demo mode, schema facts). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  code: text('code').notNull().unique(),
  principal: text('principal').notNull().default(''),
  officeTel: text('office_tel').notNull().default(''),
  mobile: text('mobile').notNull().default(''),
  fax: text('fax').notNull().default(''),
  email: text('email').notNull().default(''),
  remark: text('remark').notNull().default(''),
  /** PNG bytes, checked by magic number on upload; served as base64. */
  logo: bytea('logo'),
  /** '1' China, '2' World: which map the wall screen shows. */
  mapType: text('map_type').notNull().default('1'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The farm tree: group → company → farm. Houses hang off farm nodes. Province and map position
 * are set on farms (the wall screen's points).
 */
export const farms = pgTable(
  'farms',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => farms.id, { onDelete: 'cascade' }),
    level: text('level').notNull(),
    name: text('name').notNull(),
    /** Free-form kind of operation: broiler, layer, breeder, pig ... */
    type: text('type').notNull().default(''),
    provinceAdcode: text('province_adcode'),
    provinceName: text('province_name'),
    longitude: doublePrecision('longitude'),
    latitude: doublePrecision('latitude'),
    address: text('address').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('farms_parent_idx').on(t.parentId), index('farms_org_idx').on(t.orgId)],
);

export const breeds = pgTable('breeds', {
  id: serial('id').primaryKey(),
  /** Null for the common (shared, read-only) breeds shipped with Roost. */
  orgId: integer('org_id').references(() => organizations.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  code: text('code').notNull(),
  factory: text('factory').notNull().default(''),
  description: text('description').notNull().default(''),
  isCommon: boolean('is_common').notNull().default(false),
  operator: text('operator').notNull().default(''),
  createdAt: createdAt(),
});

/** Breed standard per day of age (the breed's targets per age). */
export const breedTargets = pgTable(
  'breed_targets',
  {
    breedId: integer('breed_id')
      .notNull()
      .references(() => breeds.id, { onDelete: 'cascade' }),
    ageDay: smallint('age_day').notNull(),
    temperature: real('temperature'),
    humidity: real('humidity'),
    co2: real('co2'),
    lightHours: real('light_hours'),
    lightIntensity: real('light_intensity'),
    waterPerHead: real('water_per_head'),
    weight: real('weight'),
    feedPerHead: real('feed_per_head'),
    eggWeight: real('egg_weight'),
    layingRate: real('laying_rate'),
    survivalRate: real('survival_rate'),
  },
  (t) => [primaryKey({ columns: [t.breedId, t.ageDay] })],
);

export const immuneReminders = pgTable('immune_reminders', {
  id: serial('id').primaryKey(),
  breedId: integer('breed_id')
    .notNull()
    .references(() => breeds.id, { onDelete: 'cascade' }),
  ageDay: smallint('age_day').notNull(),
  content: text('content').notNull(),
});

export const houses = pgTable(
  'houses',
  {
    id: serial('id').primaryKey(),
    farmId: integer('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('houses_farm_idx').on(t.farmId)],
);

/** One environment controller, collector or alarm unit per house at most. */
export const gateways = pgTable(
  'gateways',
  {
    id: serial('id').primaryKey(),
    houseId: integer('house_id').references(() => houses.id, { onDelete: 'set null' }),
    networkId: text('network_id').notNull().unique(),
    typeKey: smallint('type_key').notNull(),
    /** The serial number printed on the device. */
    number: text('number').notNull().default(''),
    version: text('version').notNull().default(''),
    simCard: text('sim_card').notNull().default(''),
    /** sha256 of the device token; the token itself is shown once and never stored. */
    tokenHash: text('token_hash').notNull(),
    /**
     * The device token sealed with the server's secret key (AES-256-GCM), kept only while Roost
     * manages an external Mosquitto's accounts: it must be able to give a gateway's password to
     * a broker that lost it. Null otherwise.
     */
    brokerSecret: text('broker_secret'),
    /** Seconds between readings the gateway promises; 3 × this without data means offline. */
    intervalSeconds: integer('interval_seconds').notNull().default(60),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('gateways_house_uniq').on(t.houseId)],
);

/**
 * A single-use enrolment code for a gateway (Roost Edge fetches its network id and a new token
 * with it). Stored as its sha256 like every secret; used once, and only until it expires.
 */
export const gatewayEnrolCodes = pgTable(
  'gateway_enrol_codes',
  {
    id: serial('id').primaryKey(),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('gateway_enrol_codes_gateway_idx').on(t.gatewayId)],
);

/** A placement of animals in a house: the house's age in days counts from `placedOn`. */
export const flocks = pgTable(
  'flocks',
  {
    id: serial('id').primaryKey(),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    breedId: integer('breed_id').references(() => breeds.id, { onDelete: 'set null' }),
    placedOn: date('placed_on', { mode: 'string' }).notNull(),
    /** Age in days on the placement date (day-old chicks are 1, pullets moved in at 16 weeks 112). */
    ageAtPlacement: smallint('age_at_placement').notNull().default(1),
    headCount: integer('head_count').notNull(),
    closedOn: date('closed_on', { mode: 'string' }),
    /** Where the birds came from (hatchery, rearing farm). */
    origin: text('origin').notNull().default(''),
    /** Birds caught or moved out at closing. */
    depletedCount: integer('depleted_count'),
    /** Total live weight caught at closing, kg. */
    catchWeightKg: real('catch_weight_kg'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('flocks_one_open_per_house')
      .on(t.houseId)
      .where(sql`${t.closedOn} is null`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    realName: text('real_name').notNull().default(''),
    department: text('department').notNull().default(''),
    position: text('position').notNull().default(''),
    officeTel: text('office_tel').notNull().default(''),
    mobile: text('mobile').notNull().default(''),
    email: text('email').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    roleKey: text('role_key').notNull(),
    canOperate: boolean('can_operate').notNull().default(false),
    remoteConfig: boolean('remote_config').notNull().default(false),
    /** company_manager: its company node. Area and farm managers use user_farms instead. */
    scopeNodeId: integer('scope_node_id').references(() => farms.id, { onDelete: 'set null' }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    loginCount: integer('login_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_username_uniq').on(sql`lower(${t.username})`)],
);

/** Farms an area_manager or farm_manager looks after. */
export const userFarms = pgTable(
  'user_farms',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    farmId: integer('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.farmId] })],
);

/** Houses a shack_manager looks after (set through the wire route /user/saveUserShacks). */
export const userHouses = pgTable(
  'user_houses',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.houseId] })],
);

/** Sign-in sessions. Only the sha256 of the token is kept; a session dies after 7 idle days. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    source: text('source').notNull().default('computer'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Single-use captchas; the answer is stored lower-cased and expires after 2 minutes. */
export const captchas = pgTable('captchas', {
  id: text('id').primaryKey(),
  answer: text('answer').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Failed sign-ins, counted per user name and per address for throttling. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    address: text('address').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_failures_user_idx').on(t.username, t.at),
    index('login_failures_addr_idx').on(t.address, t.at),
  ],
);

/** Every change anywhere in Roost (the operation log). */
export const operationLogs = pgTable(
  'operation_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    operatorId: integer('operator_id').references(() => users.id, { onDelete: 'set null' }),
    operatorName: text('operator_name').notNull(),
    function: text('function').notNull(),
    houseId: integer('house_id').references(() => houses.id, { onDelete: 'set null' }),
    houseName: text('house_name').notNull().default(''),
    /** An operation key (src/contract/operationLog.ts); `params` holds its parameters. */
    operation: text('operation').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    remark: text('remark').notNull().default(''),
    source: text('source').notNull().default('computer'),
    networkId: text('network_id').notNull().default(''),
  },
  (t) => [index('operation_logs_at_idx').on(t.at)],
);
