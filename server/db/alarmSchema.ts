import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { farms, gateways, houses, users } from './schema';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Alarms: active → acknowledged → cleared. `subject` is '' when the cause has
 * none, so the partial unique index below can hold: at most one open (not cleared) alarm per
 * house, cause and subject, whatever number of server processes raise it at once.
 */
export const alarms = pgTable(
  'alarms',
  {
    id: serial('id').primaryKey(),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    farmId: integer('farm_id').notNull(),
    cause: text('cause').notNull(),
    subject: text('subject').notNull().default(''),
    severity: text('severity').notNull(),
    state: text('state').notNull().default('active'),
    value: real('value'),
    limitValue: real('limit_value'),
    text: text('text'),
    raisedAt: at('raised_at').notNull(),
    /**
     * When the condition ended while the alarm was still open: it clears only after the clear
     * hold, and a return inside the hold counts one more occurrence (a flapping sensor).
     */
    conditionEndedAt: at('condition_ended_at'),
    acknowledgedAt: at('acknowledged_at'),
    acknowledgedBy: text('acknowledged_by'),
    ackUserId: integer('ack_user_id').references(() => users.id, { onDelete: 'set null' }),
    ackComment: text('ack_comment'),
    clearedAt: at('cleared_at'),
    clearedBy: text('cleared_by'),
    occurrences: integer('occurrences').notNull().default(1),
  },
  (t) => [
    uniqueIndex('alarms_one_open')
      .on(t.houseId, t.cause, t.subject)
      .where(sql`${t.state} <> 'cleared'`),
    index('alarms_house_raised_idx').on(t.houseId, t.raisedAt),
    index('alarms_raised_idx').on(t.raisedAt),
    // The wall's night timeline counts clears by the hour: an alarm raised long ago may clear now.
    index('alarms_cleared_idx').on(t.clearedAt),
  ],
);

/**
 * The rule engine's memory per house (pending-since timers for the minimum duration, stuck
 * sensor runs, the newest reading evaluated). One row per house, read `for update` in the
 * transaction that evaluates a batch: a restart keeps it, and two processes evaluating the
 * same house take turns instead of racing.
 */
export const alarmRuleState = pgTable('alarm_rule_state', {
  houseId: integer('house_id')
    .primaryKey()
    .references(() => houses.id, { onDelete: 'cascade' }),
  state: jsonb('state').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** Per-house limits that override the defaults (and the breed where it has no value). */
export const alarmLimits = pgTable('alarm_limits', {
  houseId: integer('house_id')
    .primaryKey()
    .references(() => houses.id, { onDelete: 'cascade' }),
  limits: jsonb('limits').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** Alarm phone: who is told about which alarms, when and how. */
export const alarmPhones = pgTable(
  'alarm_phones',
  {
    id: serial('id').primaryKey(),
    farmId: integer('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
    /** Null: every house of the farm. */
    houseId: integer('house_id').references(() => houses.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    period1Start: text('period1_start').notNull(),
    period1End: text('period1_end').notNull(),
    period2Start: text('period2_start'),
    period2End: text('period2_end'),
    dateType: text('date_type').notNull(),
    repeatMinutes: integer('repeat_minutes').notNull(),
    closable: boolean('closable').notNull(),
    alarmType: text('alarm_type').notNull(),
    delayMinutes: integer('delay_minutes').notNull(),
    status: text('status').notNull(),
    noticeTypes: jsonb('notice_types').$type<string[]>().notNull(),
    description: text('description').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('alarm_phones_farm_idx').on(t.farmId)],
);

/** Alarm input: what each DI input of a gateway means. */
export const alarmInputs = pgTable(
  'alarm_inputs',
  {
    id: serial('id').primaryKey(),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    diCode: text('di_code').notNull(),
    content: text('content').notNull(),
    horn: boolean('horn').notNull(),
    shieldTest: boolean('shield_test').notNull(),
    relayType: text('relay_type').notNull(),
    important: boolean('important').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alarm_inputs_gateway_code').on(t.gatewayId, t.diCode)],
);

/**
 * The notification queue: one row per alarm and alarm phone entry. `next_at` is when it is
 * due; a process claims due rows with `claimed_until` (and SKIP LOCKED), so several processes
 * never send the same notification twice.
 */
export const alarmNotifications = pgTable(
  'alarm_notifications',
  {
    id: serial('id').primaryKey(),
    alarmId: integer('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    phoneId: integer('phone_id')
      .notNull()
      .references(() => alarmPhones.id, { onDelete: 'cascade' }),
    nextAt: at('next_at').notNull(),
    sent: integer('sent').notNull().default(0),
    done: boolean('done').notNull().default(false),
    doneReason: text('done_reason'),
    claimedUntil: at('claimed_until'),
  },
  (t) => [
    uniqueIndex('alarm_notifications_uniq').on(t.alarmId, t.phoneId),
    index('alarm_notifications_due_idx')
      .on(t.nextAt)
      .where(sql`not ${t.done}`),
  ],
);

/** Every delivery attempt and its result, kept and shown. */
export const alarmNotifyAttempts = pgTable(
  'alarm_notify_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    notificationId: integer('notification_id')
      .notNull()
      .references(() => alarmNotifications.id, { onDelete: 'cascade' }),
    alarmId: integer('alarm_id').notNull(),
    phoneId: integer('phone_id').notNull(),
    channel: text('channel').notNull(),
    adapter: text('adapter').notNull(),
    try: integer('try').notNull(),
    at: at('at').notNull(),
    ok: boolean('ok').notNull(),
    detail: text('detail').notNull().default(''),
    /** The provider's message or call id of an accepted try: its delivery report is matched by it. */
    providerId: text('provider_id'),
  },
  (t) => [
    index('alarm_notify_attempts_alarm_idx').on(t.alarmId),
    index('alarm_notify_attempts_provider_idx')
      .on(t.providerId)
      .where(sql`${t.providerId} is not null`),
  ],
);
