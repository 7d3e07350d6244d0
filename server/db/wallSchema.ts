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
import { farms, organizations, users } from './schema';
import { DEFAULT_WALL_LAYOUT, type WallLayout, type WallTour } from '../../src/contract/wallLayout';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Kiosk links of the wall: a read-only wall without a user sign-in.
 * Like a session token, the link's token is stored only as its sha256 (server/auth/tokens.ts):
 * a database leak does not open any wall. Revoking keeps the row (the list can say who made
 * it) but sets `revoked_at`, which every check reads.
 */
export const wallKioskLinks = pgTable(
  'wall_kiosk_links',
  {
    id: serial('id').primaryKey(),
    /** The organisation whose map type (China or World) the wall shows. */
    orgId: integer('org_id').references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** True: every farm of the installation; false: only the farms in wall_kiosk_farms. */
    allFarms: boolean('all_farms').notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as text too, so the list still names the creator after the user is deleted. */
    createdByName: text('created_by_name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
    /** The panels beside the map, per column and in order; the scope's twin, but editable. */
    layout: jsonb('layout').$type<WallLayout>().notNull().default(DEFAULT_WALL_LAYOUT),
    /** The tour's seconds per stop and its stops; null: the wall stays where it is. */
    tour: jsonb('tour').$type<WallTour>(),
  },
  (t) => [index('wall_kiosk_links_created_idx').on(t.createdAt)],
);

/** The farms a kiosk link with a chosen scope may show; a deleted farm leaves its scope. */
export const wallKioskFarms = pgTable(
  'wall_kiosk_farms',
  {
    kioskId: integer('kiosk_id')
      .notNull()
      .references(() => wallKioskLinks.id, { onDelete: 'cascade' }),
    farmId: integer('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.kioskId, t.farmId] }),
    index('wall_kiosk_farms_farm_idx').on(t.farmId),
  ],
);
