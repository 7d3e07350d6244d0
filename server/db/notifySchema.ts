import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
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
 * Alarms the group channels (robots, mailboxes) have heard: each is told once per alarm, by
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
