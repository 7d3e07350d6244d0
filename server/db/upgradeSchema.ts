import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { gatewayCommands } from './envcontrolSchema';
import { gateways, users } from './schema';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Gateway upgrade files. The bytes live in DATA_DIR/upgrades under their SHA-256 (a database
 * row per file keeps what the console lists and what a command names; the same bytes
 * uploaded again are one row, the newer version name winning). `type_keys` are the gateway
 * types the file is for; a file without any (uploaded before types were kept) is sent to none.
 */
export const upgradeFiles = pgTable('upgrade_files', {
  sha256: text('sha256').primaryKey(),
  version: text('version').notNull(),
  fileName: text('file_name').notNull(),
  size: integer('size').notNull(),
  typeKeys: integer('type_keys')
    .array()
    .notNull()
    .default(sql`'{}'::integer[]`),
  uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An upgrade command's own facts (a `gateway_commands` row of kind `upgrade` carries its
 * state): the file it installs, the version it leaves, and the gateway's last progress report.
 */
export const gatewayUpgrades = pgTable('gateway_upgrades', {
  commandId: text('command_id')
    .primaryKey()
    .references(() => gatewayCommands.id, { onDelete: 'cascade' }),
  sha256: text('sha256').notNull(),
  version: text('version').notNull(),
  fromVersion: text('from_version').notNull(),
  fileName: text('file_name').notNull(),
  stage: text('stage'),
  percent: integer('percent'),
});

/**
 * Download links of upgrade commands: each sending of the command makes one, kept only as
 * its SHA-256, for one gateway, good once and for a few minutes (UPGRADE_TOKEN_SECONDS).
 */
export const upgradeTokens = pgTable('upgrade_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  commandId: text('command_id')
    .notNull()
    .references(() => gatewayCommands.id, { onDelete: 'cascade' }),
  gatewayId: integer('gateway_id')
    .notNull()
    .references(() => gateways.id, { onDelete: 'cascade' }),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
});
