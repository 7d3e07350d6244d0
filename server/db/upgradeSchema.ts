import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './schema';

/**
 * Gateway upgrade files. The bytes live in DATA_DIR/upgrades under their SHA-256 (a database
 * row per file keeps what the console lists and what a command names; the same bytes
 * uploaded again are one row, the newer version name winning).
 */
export const upgradeFiles = pgTable('upgrade_files', {
  sha256: text('sha256').primaryKey(),
  version: text('version').notNull(),
  fileName: text('file_name').notNull(),
  size: integer('size').notNull(),
  uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
});
