import type { Database } from '../db/client';
import type { Scope } from '../auth/scope';
import { hashToken, newToken } from '../auth/tokens';
import type { KioskLink } from '../../src/contract/wallKiosk';

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

interface KioskRow {
  id: number;
  all_farms: boolean;
  last_used_at: Date | string | null;
  map_type: string | null;
}

/** The live (not revoked) kiosk link of a token, or null. */
export async function findKiosk(
  database: Database,
  token: string,
  now = new Date(),
): Promise<Kiosk | null> {
  if (!isKioskToken(token)) return null;
  const tokenHash = hashToken(token);
  const [row] = await database.query<KioskRow>(
    `select k.id, k.all_farms, k.last_used_at, o.map_type
     from wall_kiosk_links k left join organizations o on o.id = k.org_id
     where k.token_hash = $1 and k.revoked_at is null`,
    [tokenHash],
  );
  if (!row) return null;
  const lastUsed = row.last_used_at === null ? 0 : new Date(row.last_used_at).getTime();
  if (now.getTime() - lastUsed > TOUCH_EVERY_MS)
    await database.query(`update wall_kiosk_links set last_used_at = $2 where id = $1`, [
      row.id,
      now,
    ]);
  return {
    id: row.id,
    tokenHash,
    scope: row.all_farms ? { all: true } : await kioskScope(database, row.id),
    mapType: row.map_type === '2' ? '2' : '1',
  };
}

/** The chosen farms (still farms) and their houses, read each time: a deleted farm drops out. */
async function kioskScope(database: Database, kioskId: number): Promise<Scope> {
  const rows = await database.query<{ farm_id: number; house_id: number | null }>(
    `select f.id as farm_id, h.id as house_id
     from wall_kiosk_farms kf
     join farms f on f.id = kf.farm_id and f.level = 'farm'
     left join houses h on h.farm_id = f.id
     where kf.kiosk_id = $1`,
    [kioskId],
  );
  const farmIds = new Set<number>();
  const houseIds = new Set<number>();
  for (const r of rows) {
    farmIds.add(Number(r.farm_id));
    if (r.house_id !== null) houseIds.add(Number(r.house_id));
  }
  return { all: false, farmIds, houseIds };
}

interface LinkRow {
  id: number;
  name: string;
  all_farms: boolean;
  created_by_name: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  farms: { farmId: number; name: string }[] | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function presentLink(row: LinkRow): KioskLink {
  // node-postgres parses json; PGlite may hand it over as text.
  const farms = typeof row.farms === 'string' ? JSON.parse(row.farms) : row.farms;
  return {
    id: Number(row.id),
    name: row.name,
    allFarms: row.all_farms,
    farms: (farms ?? []) as KioskLink['farms'],
    createdBy: row.created_by_name,
    createdAt: iso(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
  };
}

const LINK_SELECT = `select k.id, k.name, k.all_farms, k.created_by_name, k.created_at, k.last_used_at,
    (select coalesce(json_agg(json_build_object('farmId', f.id, 'name', f.name) order by f.name), '[]'::json)
     from wall_kiosk_farms kf join farms f on f.id = kf.farm_id where kf.kiosk_id = k.id) as farms
  from wall_kiosk_links k`;

/** The links not revoked, newest first. */
export async function listKiosks(database: Database): Promise<KioskLink[]> {
  const rows = await database.query<LinkRow>(
    `${LINK_SELECT} where k.revoked_at is null order by k.created_at desc, k.id desc`,
  );
  return rows.map(presentLink);
}

export interface NewKiosk {
  name: string;
  allFarms: boolean;
  farmIds: readonly number[];
  orgId: number | null;
  createdBy: { id: number; name: string };
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
  const id = await database.transaction(async ({ query }) => {
    if (!input.allFarms) {
      const [found] = await query<{ n: number }>(
        `select count(*)::int as n from farms where id = any($1::int[]) and level = 'farm'`,
        [farmIds],
      );
      if (Number(found?.n ?? 0) !== farmIds.length) return null;
    }
    const [row] = await query<{ id: number }>(
      `insert into wall_kiosk_links (org_id, name, token_hash, all_farms, created_by_id, created_by_name)
       values ($1, $2, $3, $4, $5, $6) returning id`,
      [
        input.orgId,
        input.name,
        hashToken(token),
        input.allFarms,
        input.createdBy.id,
        input.createdBy.name,
      ],
    );
    const kioskId = Number(row!.id);
    if (!input.allFarms)
      await query(`insert into wall_kiosk_farms (kiosk_id, farm_id) select $1, unnest($2::int[])`, [
        kioskId,
        farmIds,
      ]);
    return kioskId;
  });
  if (id === null) return null;
  const [row] = await database.query<LinkRow>(`${LINK_SELECT} where k.id = $1`, [id]);
  return { link: presentLink(row!), token };
}

/** Revokes a live link; answers its name and token hash (to close its sockets), or null. */
export async function revokeKiosk(
  database: Database,
  id: number,
): Promise<{ name: string; tokenHash: string } | null> {
  const [row] = await database.query<{ name: string; token_hash: string }>(
    `update wall_kiosk_links set revoked_at = now() where id = $1 and revoked_at is null
     returning name, token_hash`,
    [id],
  );
  return row ? { name: row.name, tokenHash: row.token_hash } : null;
}
