import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { gateways, houses, users } from './schema';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Commands to gateways are rows before they are messages: a restart loses none, and every
 * console reads the same state. `state` moves queued → sent → applied | rejected | expired |
 * superseded and never leaves a final state (every update says `where state in (queued, sent)`),
 * so a duplicated acknowledgement changes nothing.
 */
export const gatewayCommands = pgTable(
  'gateway_commands',
  {
    id: text('id').primaryKey(),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    state: text('state').notNull(),
    params: jsonb('params').$type<Record<string, number>>().notNull(),
    readBack: jsonb('read_back').$type<Record<string, number>>(),
    reason: text('reason'),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedByName: text('requested_by_name').notNull(),
    source: text('source').notNull().default('computer'),
    createdAt: at('created_at').notNull().defaultNow(),
    sentAt: at('sent_at'),
    finishedAt: at('finished_at'),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    index('gateway_commands_open_idx')
      .on(t.gatewayId, t.createdAt)
      .where(sql`${t.state} in ('queued', 'sent')`),
    index('gateway_commands_house_idx').on(t.houseId, t.createdAt),
  ],
);

/** The parameter set each gateway last reported or read back: what the console shows. */
export const gatewayParams = pgTable('gateway_params', {
  gatewayId: integer('gateway_id')
    .primaryKey()
    .references(() => gateways.id, { onDelete: 'cascade' }),
  params: jsonb('params')
    .$type<Record<string, number>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  reportedAt: at('reported_at').notNull().defaultNow(),
});

/**
 * Modify records: one row per parameter that changed, from the console (a command applied) or
 * at the controller itself (a local change the gateway reported), with old and new values.
 */
export const paramChanges = pgTable(
  'param_changes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    at: at('at').notNull().defaultNow(),
    source: text('source').notNull(),
    operatorName: text('operator_name').notNull(),
    commandId: text('command_id'),
    key: text('key').notNull(),
    oldValue: doublePrecision('old_value'),
    newValue: doublePrecision('new_value').notNull(),
  },
  (t) => [index('param_changes_house_idx').on(t.houseId, t.at)],
);

/**
 * Device logs: what a gateway answered to "load device log", its last few kept per gateway
 * (DEVICE_LOG_KEEP), each with the command that asked for it.
 */
export const gatewayLogs = pgTable(
  'gateway_logs',
  {
    commandId: text('command_id')
      .primaryKey()
      .references(() => gatewayCommands.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    lines: jsonb('lines').$type<string[]>().notNull(),
    receivedAt: at('received_at').notNull().defaultNow(),
  },
  (t) => [index('gateway_logs_gateway_idx').on(t.gatewayId, t.receivedAt)],
);
