import { integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './schema';

/**
 * Addresses a user has signed in from with the right password. The sign-in throttle lets a
 * known address keep trying its own account when strangers have used up the account's
 * hourly budget of failures, so nobody can lock a user out by guessing wrong on purpose.
 */
export const knownSignInAddresses = pgTable(
  'known_sign_in_addresses',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.address] })],
);

/**
 * One row /api/health rewrites on every call: a real, durable write, so a full disk or a
 * read-only database shows as unhealthy even while reads still work.
 */
export const healthProbe = pgTable('health_probe', {
  id: smallint('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});
