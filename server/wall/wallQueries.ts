import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { Scope } from '../auth/scope';
import { houses } from '../db/schema';
import { houseState } from '../db/telemetrySchema';
import type { WallFarm, WallHouse, WallState } from '../../src/contract/wall';
import { readWallFarmCounts } from './wallQueries.sql';

/** A house in alarm outweighs an offline one, which outweighs a normal one. */
function worstOf(alarmHouses: number, offlineHouses: number): WallState {
  if (alarmHouses > 0) return 'alarm';
  if (offlineHouses > 0) return 'offline';
  return 'normal';
}

/**
 * The farm nodes in scope with their houses' worst state. A house without state (never heard
 * from) counts as offline; an alarm counts whatever the gateway's connection.
 */
export async function wallFarms(
  database: Database,
  scope: Scope,
  filter: { adcode?: string; farmId?: number } = {},
): Promise<WallFarm[]> {
  const rows = await readWallFarmCounts(database, scope, filter);
  return rows.map((r) => ({
    farmId: r.farmId,
    name: r.name,
    provinceAdcode: r.provinceAdcode,
    provinceName: r.provinceName,
    longitude: r.longitude,
    latitude: r.latitude,
    houseCount: r.houseCount,
    worstState: worstOf(r.alarmHouses, r.offlineHouses),
    alarmCount: r.alarmCount,
    unacknowledged: r.unacknowledged,
  }));
}

/** The houses of one farm in scope, in the console's order. */
export async function wallHouses(
  database: Database,
  scope: Scope,
  farmId: number,
): Promise<WallHouse[]> {
  const rows = await database.db
    .select({
      houseId: houses.id,
      name: houses.name,
      online: houseState.online,
      alarmCount: houseState.alarmCount,
    })
    .from(houses)
    .leftJoin(houseState, eq(houseState.houseId, houses.id))
    .where(
      and(
        eq(houses.farmId, farmId),
        scope.all ? undefined : inArray(houses.id, [...scope.houseIds]),
      ),
    )
    .orderBy(asc(houses.sort), asc(houses.id));
  return rows.map((r) => {
    const alarmCount = r.alarmCount ?? 0;
    return {
      houseId: r.houseId,
      name: r.name,
      state: worstOf(alarmCount, r.online ? 0 : 1),
      alarmCount,
    };
  });
}
