import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { breeds, farms, flocks, gateways, houses } from '../db/schema';
import { houseState } from '../db/telemetrySchema';
import { canSeeHouse, type Scope } from '../auth/scope';

/** A house with its gateway and what House Setting shows of it. */
export interface HouseRow {
  houseId: number;
  houseName: string;
  farmId: number;
  farmName: string;
  province: string | null;
  breedName: string | null;
  gatewayId: number | null;
  networkId: string | null;
  typeKey: number | null;
  version: string | null;
  simCard: string | null;
  number: string | null;
  online: boolean | null;
  network: string | null;
  onlineSince: Date | null;
}

/**
 * The houses of `houseIds` the scope holds, with their gateways (commands, upgrades and log
 * requests all start here). The version is the one the gateway last reported, else the one
 * it was registered with.
 */
export async function housesInScope(
  database: Database,
  scope: Scope,
  houseIds: readonly number[],
): Promise<HouseRow[]> {
  const visible = houseIds.filter((id) => canSeeHouse(scope, id));
  if (visible.length === 0) return [];
  return database.db
    .select({
      houseId: houses.id,
      houseName: houses.name,
      farmId: farms.id,
      farmName: farms.name,
      province: farms.provinceName,
      breedName: breeds.name,
      gatewayId: gateways.id,
      networkId: gateways.networkId,
      typeKey: gateways.typeKey,
      version: sql<string | null>`coalesce(${houseState.gatewayVersion}, ${gateways.version})`,
      simCard: gateways.simCard,
      number: gateways.number,
      online: houseState.online,
      network: houseState.network,
      onlineSince: houseState.onlineSince,
    })
    .from(houses)
    .innerJoin(farms, eq(farms.id, houses.farmId))
    .leftJoin(gateways, eq(gateways.houseId, houses.id))
    .leftJoin(houseState, eq(houseState.houseId, houses.id))
    .leftJoin(flocks, and(eq(flocks.houseId, houses.id), isNull(flocks.closedOn)))
    .leftJoin(breeds, eq(breeds.id, flocks.breedId))
    .where(inArray(houses.id, visible))
    .orderBy(asc(houses.id));
}
