import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { alarmPhones, alarms } from './alarmSchema';
import { farms, houses, users } from './schema';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Silences and maintenance windows: while one covers an alarm (its farm, or one house; one
 * cause or all), the alarm is recorded as usual but nobody is notified. A window may start
 * later (planned maintenance); `ended_at` is set when someone ends it early.
 */
export const notifySilences = pgTable(
  'notify_silences',
  {
    id: serial('id').primaryKey(),
    farmId: integer('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
    /** Null: every house of the farm. */
    houseId: integer('house_id').references(() => houses.id, { onDelete: 'cascade' }),
    /** Null: every cause. */
    cause: text('cause'),
    reason: text('reason').notNull(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    ownerName: text('owner_name').notNull(),
    startsAt: at('starts_at').notNull(),
    endsAt: at('ends_at').notNull(),
    endedAt: at('ended_at'),
    endedBy: text('ended_by'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('notify_silences_farm_idx').on(t.farmId, t.endsAt)],
);

/** Alarms a silence kept quiet: the mark the alarm list and the silence's page show. */
export const notifySilencedAlarms = pgTable('notify_silenced_alarms', {
  alarmId: integer('alarm_id')
    .primaryKey()
    .references(() => alarms.id, { onDelete: 'cascade' }),
  silenceId: integer('silence_id')
    .notNull()
    .references(() => notifySilences.id, { onDelete: 'cascade' }),
  at: at('at').notNull(),
});

/**
 * Alarm e-mail, one row per alarm and mailbox: the claim that makes each person hear an alarm
 * once however many processes run, and what their mail came to. The row with the empty mailbox
 * is the alarm's own claim: whoever inserts it finds the recipients and mails them.
 */
export const notifyMailSends = pgTable(
  'notify_mail_sends',
  {
    alarmId: integer('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    mailbox: text('mailbox').notNull(),
    /** The account the mailbox is (its acknowledge link acknowledges as them); null: a listed mailbox. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    at: at('at').notNull(),
    tries: integer('tries').notNull().default(0),
    ok: boolean('ok'),
    detail: text('detail').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.alarmId, t.mailbox] })],
);

/**
 * Alarms the group robots have heard: each is told once per alarm, by
 * whichever process claims the row first.
 */
export const notifyGroupSends = pgTable('notify_group_sends', {
  alarmId: integer('alarm_id')
    .primaryKey()
    .references(() => alarms.id, { onDelete: 'cascade' }),
  at: at('at').notNull(),
});

/**
 * Escalation: an alarm phone entry of level 1 is called only when nobody acknowledged the
 * alarm within the repeat interval of a level-0 entry, level 2 after level 1, and so on.
 * Entries without a row are level 0 (called as before).
 */
export const notifyPhoneLevels = pgTable('notify_phone_levels', {
  phoneId: integer('phone_id')
    .primaryKey()
    .references(() => alarmPhones.id, { onDelete: 'cascade' }),
  level: integer('level').notNull(),
});

/**
 * A user's own notification preferences. They apply to the alarm phone entries whose number is
 * the user's mobile (the entries are per number; the account is how a person says what they
 * want on it). Null farms: every farm the user may see.
 */
export const notifyPrefs = pgTable('notify_prefs', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  farmIds: jsonb('farm_ids').$type<number[] | null>(),
  severities: jsonb('severities').$type<string[]>().notNull(),
  channels: jsonb('channels').$type<string[]>().notNull(),
  /** Local HH:MM (ROOST_TIMEZONE); both null: no quiet hours. Critical alarms still go. */
  quietStart: text('quiet_start'),
  quietEnd: text('quiet_end'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * An alarm drill: a test alarm for one house that goes to every alarm phone entry covering
 * it, through every channel the entry uses, to prove each person is reachable.
 */
export const notifyDrills = pgTable(
  'notify_drills',
  {
    id: serial('id').primaryKey(),
    farmId: integer('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    startedBy: text('started_by').notNull(),
    /** Started by the weekly schedule rather than by hand. */
    scheduled: boolean('scheduled').notNull().default(false),
    startedAt: at('started_at').notNull(),
    /** Set by the process that claimed it for sending (the alarm dispatcher's round). */
    dispatchedAt: at('dispatched_at'),
  },
  (t) => [index('notify_drills_house_idx').on(t.houseId, t.startedAt)],
);

/** One person (alarm phone entry) and channel of a drill: when it was sent, delivered, confirmed. */
export const notifyDrillReceipts = pgTable(
  'notify_drill_receipts',
  {
    drillId: integer('drill_id')
      .notNull()
      .references(() => notifyDrills.id, { onDelete: 'cascade' }),
    phoneId: integer('phone_id').notNull(),
    phone: text('phone').notNull(),
    channel: text('channel').notNull(),
    level: integer('level').notNull().default(0),
    adapter: text('adapter'),
    tries: integer('tries').notNull().default(0),
    sentAt: at('sent_at'),
    /** Set when the provider reports delivery; null where it does not. */
    deliveredAt: at('delivered_at'),
    /** Provider's message or call id, to match its delivery report. */
    providerId: text('provider_id'),
    failedDetail: text('failed_detail'),
    acknowledgedAt: at('acknowledged_at'),
    ackComment: text('ack_comment'),
    /**
     * The process sending it holds it until then; a receipt never tried (`tries` 0) whose claim
     * ran out is sent by the next round, so a crash between claim and send loses no message.
     */
    claimedUntil: at('claimed_until'),
  },
  (t) => [
    primaryKey({ columns: [t.drillId, t.phoneId, t.channel] }),
    index('notify_drill_receipts_provider_idx')
      .on(t.providerId)
      .where(sql`${t.providerId} is not null`),
  ],
);

/** A house's weekly drill: weekday (0 Sunday … 6) and local HH:MM. */
export const notifyDrillSchedules = pgTable('notify_drill_schedules', {
  houseId: integer('house_id')
    .primaryKey()
    .references(() => houses.id, { onDelete: 'cascade' }),
  farmId: integer('farm_id')
    .notNull()
    .references(() => farms.id, { onDelete: 'cascade' }),
  weekday: integer('weekday').notNull(),
  time: text('time').notNull(),
  createdBy: text('created_by').notNull(),
  /** The last drill it started, so one minute never starts two. */
  lastRunAt: at('last_run_at'),
});
