import {
  date,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { breeds, flocks, houses, organizations, users } from './schema';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * What a house's people enter for one day of a flock. A day without a row is a missing day
 * (shown as missing, never as zero); inside a row a null means "not measured that day".
 */
export const dailyRecords = pgTable(
  'daily_records',
  {
    flockId: integer('flock_id')
      .notNull()
      .references(() => flocks.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    deathsAm: integer('deaths_am').notNull(),
    deathsPm: integer('deaths_pm').notNull(),
    cullsAm: integer('culls_am').notNull(),
    cullsPm: integer('culls_pm').notNull(),
    feedKg: real('feed_kg').notNull(),
    /** Only where water is not metered; the metered day comes from the readings. */
    waterL: real('water_l'),
    eggs: integer('eggs'),
    eggKg: real('egg_kg'),
    /** Average of the day's weighed sample, grams per bird. */
    bodyWeightG: real('body_weight_g'),
    /** Share of the sample within ±10 % of its average, in %. */
    uniformity: real('uniformity'),
    note: text('note').notNull().default(''),
    updatedAt: at('updated_at').notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.flockId, t.day] })],
);

/**
 * A flock's immune or daily task of one day of age, done or skipped. Keyed by the task's age and
 * content rather than the breed row's id: saving a breed's reminders replaces its rows.
 */
export const flockTasks = pgTable(
  'flock_tasks',
  {
    flockId: integer('flock_id')
      .notNull()
      .references(() => flocks.id, { onDelete: 'cascade' }),
    ageDay: smallint('age_day').notNull(),
    content: text('content').notNull(),
    state: text('state').notNull(),
    note: text('note').notNull().default(''),
    decidedAt: at('decided_at').notNull().defaultNow(),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.flockId, t.ageDay, t.content] })],
);

/** One organisation's time-of-use electricity tariff: which hours are peak, flat or valley and their prices. */
export const tariffs = pgTable('tariffs', {
  orgId: integer('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** 24 entries, hour 0 … 23 of the installation's day: 'peak' | 'flat' | 'valley'. */
  hours: jsonb('hours').$type<string[]>().notNull(),
  /** Price per kWh of each period, in `currency`. */
  prices: jsonb('prices').$type<Record<string, number>>().notNull(),
  /** ISO 4217 code of the prices (TARIFF_CURRENCIES); tariffs saved before it were in yuan. */
  currency: text('currency').notNull().default('CNY'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * A breed's early-warning limits and on/off switches (src/contract/earlyWarnings.ts): the
 * default of its flocks. A missing field is Roost's default.
 */
export const breedWarningLimits = pgTable('breed_warning_limits', {
  breedId: integer('breed_id')
    .primaryKey()
    .references(() => breeds.id, { onDelete: 'cascade' }),
  limits: jsonb('limits').$type<Record<string, number | boolean>>().notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** A house's override of its flock's breed's early-warning limits, field by field. */
export const houseWarningLimits = pgTable('house_warning_limits', {
  houseId: integer('house_id')
    .primaryKey()
    .references(() => houses.id, { onDelete: 'cascade' }),
  limits: jsonb('limits').$type<Record<string, number | boolean>>().notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});
