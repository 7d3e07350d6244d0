import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { Scope } from '../auth/scope';
import { farms, houses, organizations } from '../db/schema';
import { wallKioskFarms, wallKioskLinks } from '../db/wallSchema';
import { hashToken, newToken } from '../auth/tokens';
import type { KioskLink, KioskSelf } from '../../src/contract/wallKiosk';
import type { WallDisplay } from '../../src/contract/wallLayout';

/**
 * Kiosk tokens carry a prefix: the server tells them from session tokens without a lookup in
 * each table, and a leaked one is recognisable in a log or a secret scanner.
 */
export const KIOSK_TOKEN_PREFIX = 'rk_';
/** Writing last_used_at on every request would turn each read into a write: once a minute is enough. */
const TOUCH_EVERY_MS = 60_000;
/** A token longer than this is not ours: refused before hashing. */
const TOKEN_MAX_LENGTH = 200;

export function isKioskToken(token: string): boolean {
  return token.startsWith(KIOSK_TOKEN_PREFIX) && token.length <= TOKEN_MAX_LENGTH;
}

/** What a kiosk token opens: its scope and the organisation's map type. */
export interface Kiosk {
  id: number;
  tokenHash: string;
  scope: Scope;
  mapType: '1' | '2';
}

/** The live (not revoked) kiosk link of a token, or null. */
export async function findKiosk(
  database: Database,
  token: string,
  now = new Date(),
): Promise<Kiosk | null> {
  if (!isKioskToken(token)) return null;
  const tokenHash = hashToken(token);
  const k = wallKioskLinks;
  const [row] = await database.db
    .select({
      id: k.id,
      allFarms: k.allFarms,
      lastUsedAt: k.lastUsedAt,
      mapType: organizations.mapType,
    })
    .from(k)
    .leftJoin(organizations, eq(organizations.id, k.orgId))
    .where(and(eq(k.tokenHash, tokenHash), isNull(k.revokedAt)));
  if (!row) return null;
  const lastUsed = row.lastUsedAt === null ? 0 : row.lastUsedAt.getTime();
  if (now.getTime() - lastUsed > TOUCH_EVERY_MS)
    await database.db.update(k).set({ lastUsedAt: now }).where(eq(k.id, row.id));
  return {
    id: row.id,
    tokenHash,
    scope: row.allFarms ? { all: true } : await kioskScope(database, row.id),
    mapType: row.mapType === '2' ? '2' : '1',
  };
}

/** The chosen farms (still farms) and their houses, read each time: a deleted farm drops out. */
async function kioskScope(database: Database, kioskId: number): Promise<Scope> {
  const rows = await database.db
    .select({ farmId: farms.id, houseId: houses.id })
    .from(wallKioskFarms)
    .innerJoin(farms, and(eq(farms.id, wallKioskFarms.farmId), eq(farms.level, 'farm')))
    .leftJoin(houses, eq(houses.farmId, farms.id))
    .where(eq(wallKioskFarms.kioskId, kioskId));
  const farmIds = new Set<number>();
  const houseIds = new Set<number>();
  for (const r of rows) {
    farmIds.add(r.farmId);
    if (r.houseId !== null) houseIds.add(r.houseId);
  }
  return { all: false, farmIds, houseIds };
}

const iso = (value: Date) => value.toISOString();

/**
 * A link as the list shows it, with its chosen farms by name (none for all farms). The link's id
 * is named with its table: in a one-table select Drizzle writes bare column names, and a bare
 * "id" inside the subquery would be the farm's.
 */
const LINK_FIELDS = {
  id: wallKioskLinks.id,
  name: wallKioskLinks.name,
  allFarms: wallKioskLinks.allFarms,
  createdBy: wallKioskLinks.createdByName,
  createdAt: wallKioskLinks.createdAt,
  lastUsedAt: wallKioskLinks.lastUsedAt,
  layout: wallKioskLinks.layout,
  tour: wallKioskLinks.tour,
  farms: sql<
    KioskLink['farms']
  >`(select coalesce(json_agg(json_build_object('farmId', ${farms.id}, 'name', ${farms.name}) order by ${farms.name}), '[]'::json)
     from ${wallKioskFarms} join ${farms} on ${farms.id} = ${wallKioskFarms.farmId}
     where ${wallKioskFarms.kioskId} = ${wallKioskLinks}.${sql.identifier(wallKioskLinks.id.name)})`.mapWith(
    // node-postgres parses json; PGlite may hand it over as text.
    (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value),
  ),
};

function presentLink(row: {
  id: number;
  name: string;
  allFarms: boolean;
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  farms: KioskLink['farms'] | null;
  layout: KioskLink['layout'];
  tour: KioskLink['tour'];
}): KioskLink {
  return {
    ...row,
    farms: row.farms ?? [],
    createdAt: iso(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : iso(row.lastUsedAt),
  };
}

/** The links not revoked, newest first. */
export async function listKiosks(database: Database): Promise<KioskLink[]> {
  const rows = await database.db
    .select(LINK_FIELDS)
    .from(wallKioskLinks)
    .where(isNull(wallKioskLinks.revokedAt))
    .orderBy(desc(wallKioskLinks.createdAt), desc(wallKioskLinks.id));
  return rows.map(presentLink);
}

export interface NewKiosk {
  name: string;
  allFarms: boolean;
  farmIds: readonly number[];
  orgId: number | null;
  createdBy: { id: number; name: string };
  display: WallDisplay;
}

/**
 * Creates a link and answers its token, which exists nowhere else afterwards. Farm ids that
 * are not farms are refused (null), so a scope never silently shrinks to nothing.
 */
export async function createKiosk(
  database: Database,
  input: NewKiosk,
): Promise<{ link: KioskLink; token: string } | null> {
  const token = `${KIOSK_TOKEN_PREFIX}${newToken()}`;
  const farmIds = [...new Set(input.farmIds)];
  const id = await database.transaction(async ({ db }) => {
    if (!input.allFarms) {
      const [found] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(farms)
        .where(and(inArray(farms.id, farmIds), eq(farms.level, 'farm')));
      if ((found?.n ?? 0) !== farmIds.length) return null;
    }
    const [row] = await db
      .insert(wallKioskLinks)
      .values({
        orgId: input.orgId,
        name: input.name,
        tokenHash: hashToken(token),
        allFarms: input.allFarms,
        createdById: input.createdBy.id,
        createdByName: input.createdBy.name,
        layout: input.display.layout,
        tour: input.display.tour,
      })
      .returning({ id: wallKioskLinks.id });
    const kioskId = row!.id;
    if (!input.allFarms && farmIds.length > 0)
      await db.insert(wallKioskFarms).values(farmIds.map((farmId) => ({ kioskId, farmId })));
    return kioskId;
  });
  if (id === null) return null;
  const [row] = await database.db
    .select(LINK_FIELDS)
    .from(wallKioskLinks)
    .where(eq(wallKioskLinks.id, id));
  return { link: presentLink(row!), token };
}

/** Revokes a live link; answers its name and token hash (to close its sockets), or null. */
export async function revokeKiosk(
  database: Database,
  id: number,
): Promise<{ name: string; tokenHash: string } | null> {
  const [row] = await database.db
    .update(wallKioskLinks)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(wallKioskLinks.id, id), isNull(wallKioskLinks.revokedAt)))
    .returning({ name: wallKioskLinks.name, tokenHash: wallKioskLinks.tokenHash });
  return row ?? null;
}

/** Changes a live link's panels and tour (never its scope); answers the link, or null. */
export async function setKioskDisplay(
  database: Database,
  id: number,
  display: WallDisplay,
): Promise<KioskLink | null> {
  const [changed] = await database.db
    .update(wallKioskLinks)
    .set({ layout: display.layout, tour: display.tour })
    .where(and(eq(wallKioskLinks.id, id), isNull(wallKioskLinks.revokedAt)))
    .returning({ id: wallKioskLinks.id });
  if (!changed) return null;
  const [row] = await database.db
    .select(LINK_FIELDS)
    .from(wallKioskLinks)
    .where(eq(wallKioskLinks.id, id));
  return presentLink(row!);
}

/** What a kiosk's own link shows: its name, panels and tour; read by the link's id alone. */
export async function kioskSelf(database: Database, kioskId: number): Promise<KioskSelf | null> {
  const [row] = await database.db
    .select({
      name: wallKioskLinks.name,
      layout: wallKioskLinks.layout,
      tour: wallKioskLinks.tour,
    })
    .from(wallKioskLinks)
    .where(and(eq(wallKioskLinks.id, kioskId), isNull(wallKioskLinks.revokedAt)));
  return row ?? null;
}
