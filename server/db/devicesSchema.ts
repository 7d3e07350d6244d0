import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ExtraParameter } from '../../src/contract/devices';
import { houses } from './schema';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** A box a house's sensors and controllers hang on: a sensor gateway, transmitter or controller. */
export const concentrators = pgTable(
  'concentrators',
  {
    id: serial('id').primaryKey(),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    model: text('model').notNull().default(''),
    address: text('address').notNull().default(''),
    version: text('version').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('concentrators_house_code_uniq').on(t.houseId, t.code)],
);

/**
 * A device of a house. `controlPort` is the key the gateway reports its on/off state under
 * (`fan_3`); `extras` are the metrics of its own it brings (a dust sensor, a scale).
 */
export const terminalDevices = pgTable(
  'terminal_devices',
  {
    id: serial('id').primaryKey(),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    concentratorId: integer('concentrator_id').references(() => concentrators.id, {
      onDelete: 'set null',
    }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    controlPort: text('control_port').notNull().default(''),
    currentPort: text('current_port').notNull().default(''),
    sensorPort: text('sensor_port').notNull().default(''),
    model: text('model').notNull().default(''),
    address: text('address').notNull().default(''),
    canInput: boolean('can_input').notNull().default(false),
    type: text('type').notNull(),
    extras: jsonb('extras')
      .$type<ExtraParameter[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('terminal_devices_house_code_uniq').on(t.houseId, t.code),
    index('terminal_devices_concentrator_idx').on(t.concentratorId),
  ],
);

/**
 * Readings of extra parameters: one narrow row per value, written only when a reading carries
 * any, so the common catalogue-only reading costs nothing more (see ARCHITECTURE.md).
 */
export const telemetryExtra = pgTable(
  'telemetry_extra',
  {
    houseId: integer('house_id').notNull(),
    code: text('code').notNull(),
    ts: at('ts').notNull(),
    value: real('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.houseId, t.code, t.ts] })],
);

export const telemetryExtraHourly = pgTable(
  'telemetry_extra_hourly',
  {
    houseId: integer('house_id').notNull(),
    code: text('code').notNull(),
    bucket: at('bucket').notNull(),
    min: real('min').notNull(),
    max: real('max').notNull(),
    sum: doublePrecision('sum').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.houseId, t.code, t.bucket] })],
);

/** Extra parameters by day of the installation's time zone (stored as its midnight). */
export const telemetryExtraDaily = pgTable(
  'telemetry_extra_daily',
  {
    houseId: integer('house_id').notNull(),
    code: text('code').notNull(),
    bucket: at('bucket').notNull(),
    min: real('min').notNull(),
    max: real('max').notNull(),
    sum: doublePrecision('sum').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.houseId, t.code, t.bucket] })],
);

/**
 * How long each controller port of a house has run, counted from the on/off states of the
 * gateway's readings: the time from one reading to the next counts when the first said "on".
 * One row per house, its ports in `devices` ({ port: { run, last, state } }: seconds run, the
 * last counted reading's time in epoch ms, its state), not a row per port: every reading
 * changes every port's row, and at 20,000 houses eleven row versions a reading were PostgreSQL's
 * second largest write (bench/scale.ts). `version` grows with each write: a count read
 * without a lock writes only where nothing was counted meanwhile (server/devices/runtime.ts).
 */
export const deviceRuntime = pgTable('device_runtime', {
  houseId: integer('house_id')
    .primaryKey()
    .references(() => houses.id, { onDelete: 'cascade' }),
  devices: jsonb('devices').notNull().default({}),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

export const maintenancePlans = pgTable(
  'maintenance_plans',
  {
    id: serial('id').primaryKey(),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').references(() => terminalDevices.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    content: text('content').notNull(),
    description: text('description').notNull().default(''),
    plannedDate: date('planned_date', { mode: 'string' }),
    interval: integer('interval'),
    /** The device's run seconds when the plan was made or last completed (duration plans). */
    baseRunSeconds: doublePrecision('base_run_seconds').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('maintenance_plans_house_idx').on(t.houseId)],
);

export const maintenanceHistory = pgTable(
  'maintenance_history',
  {
    id: serial('id').primaryKey(),
    planId: integer('plan_id').references(() => maintenancePlans.id, { onDelete: 'set null' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    deviceName: text('device_name'),
    type: text('type').notNull(),
    content: text('content').notNull(),
    doneAt: at('done_at').notNull(),
    doneBy: text('done_by').notNull(),
    notes: text('notes').notNull().default(''),
  },
  (t) => [index('maintenance_history_house_idx').on(t.houseId, t.doneAt)],
);

/**
 * A camera of a house. Its name is unique within its house (not the organisation: a refusal there
 * would tell a house manager of a name in a house they cannot see); the user name, password and
 * verify code are stored encrypted (AES-256-GCM, `server/devices/secrets.ts`) and never answered.
 */
export const cameras = pgTable(
  'cameras',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    channel: integer('channel').notNull().default(1),
    vendor: text('vendor').notNull(),
    userNameSecret: text('user_name_secret').notNull().default(''),
    passwordSecret: text('password_secret').notNull().default(''),
    verifyCodeSecret: text('verify_code_secret').notNull().default(''),
    /** The media gateway's HLS address of this camera; empty: ROOST_MEDIA_URL + code. */
    streamUrl: text('stream_url').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('cameras_house_name_uniq').on(t.houseId, t.name),
    // The code names the camera's folder on the media gateway (ROOST_MEDIA_URL + code), so two
    // cameras sharing one would play each other's stream, across houses and organisations.
    uniqueIndex('cameras_code_uniq').on(t.code),
  ],
);

/**
 * Each maintenance notice sent to an alarm phone entry, one a day per plan and entry: the
 * primary key is the claim, so several processes never send the same day's notice twice.
 */
export const deviceNoticeSends = pgTable(
  'device_notice_sends',
  {
    planId: integer('plan_id')
      .notNull()
      .references(() => maintenancePlans.id, { onDelete: 'cascade' }),
    phoneId: integer('phone_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    at: at('at').notNull(),
    ok: boolean('ok').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.planId, t.phoneId, t.day] })],
);
